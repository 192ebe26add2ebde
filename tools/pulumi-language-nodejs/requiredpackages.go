package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// GetRequiredPackages reports the resource plugins that the program's installed npm packages declare, so the engine
// can install them before the program runs, and `pulumi about` can list them. A package declares its plugin under
// "pulumi" in its package.json (plugin.PulumiPluginJSON), as generated provider SDKs do:
//
//	"pulumi": { "resource": true, "name": "aws", "version": "6.0.0", "server": "https://…" }
//
// Every package under the program's node_modules counts, nested and transitive ones included, and so does the
// node_modules of the workspace root that `pulumi install` installs into.
func (host *nodeLanguageHost) GetRequiredPackages(
	_ context.Context, req *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	programDir := req.GetInfo().GetProgramDirectory()
	roots := []string{filepath.Join(programDir, "node_modules")}
	wsRoot, err := npm.FindWorkspaceRoot(programDir)
	switch {
	case err == nil:
		roots = append(roots, filepath.Join(wsRoot, "node_modules"))
	case !errors.Is(err, npm.ErrNotInWorkspace):
		// A broken manifest above the program must not stop it from running; the program's own packages still count.
		logging.V(5).Infof("GetRequiredPackages: no workspace root for %s: %v", programDir, err)
	}

	scan := packageScan{visited: map[string]bool{}, found: map[string]*pulumirpc.PackageDependency{}}
	for _, root := range roots {
		if err := scan.nodeModules(root); err != nil {
			return nil, fmt.Errorf("could not list the packages of %s: %w", programDir, err)
		}
	}
	keys := make([]string, 0, len(scan.found))
	for key := range scan.found {
		keys = append(keys, key)
	}
	sort.Strings(keys)
	packages := make([]*pulumirpc.PackageDependency, len(keys))
	for i, key := range keys {
		packages[i] = scan.found[key]
	}
	return &pulumirpc.GetRequiredPackagesResponse{Packages: packages}, nil
}

type packageScan struct {
	visited map[string]bool                         // node_modules directories already read, by real path
	found   map[string]*pulumirpc.PackageDependency // by name, version, server and parameterization
}

// nodeModules reads the packages in a node_modules directory, `@scope/name` ones included.
func (s *packageScan) nodeModules(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	} else if err != nil {
		return err
	}
	if s.visited[real] {
		return nil
	}
	s.visited[real] = true

	entries, err := os.ReadDir(real)
	if err != nil {
		return err
	}
	for _, entry := range entries {
		name := entry.Name()
		// Dot entries are npm's and pnpm's bookkeeping (.bin, .package-lock.json, .pnpm); pnpm's store is reached
		// through the links into it.
		if strings.HasPrefix(name, ".") {
			continue
		}
		if !strings.HasPrefix(name, "@") {
			if err := s.pkg(filepath.Join(real, name)); err != nil {
				return err
			}
			continue
		}
		scoped, err := os.ReadDir(filepath.Join(real, name))
		if err != nil {
			continue // not a directory: nothing node could load either
		}
		for _, pkg := range scoped {
			if err := s.pkg(filepath.Join(real, name, pkg.Name())); err != nil {
				return err
			}
		}
	}
	return nil
}

// pkg records the plugin that the package in dir declares, then reads the node_modules its dependencies live in.
func (s *packageScan) pkg(dir string) error {
	real, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil // a dangling link: node cannot load it either
	}
	manifestPath := filepath.Join(real, "package.json")
	manifest, err := os.ReadFile(manifestPath)
	if err != nil {
		return nil // not a package, e.g. a stray file or directory
	}
	var pkg struct {
		Name    string          `json:"name"`
		Version string          `json:"version"`
		Pulumi  json.RawMessage `json:"pulumi"`
	}
	var declared plugin.PulumiPluginJSON
	switch {
	case json.Unmarshal(manifest, &pkg) != nil:
		// Unrelated packages may ship odd manifests; they must not stop the program from running.
		logging.V(5).Infof("GetRequiredPackages: skipping %s: not valid JSON", manifestPath)
	case len(pkg.Pulumi) == 0:
	case json.Unmarshal(pkg.Pulumi, &declared) != nil:
		logging.V(5).Infof("GetRequiredPackages: skipping %s: its \"pulumi\" field is not a plugin declaration", manifestPath)
	case declared.Resource:
		s.add(pkg.Name, pkg.Version, declared)
	}

	// npm nests a dependency under its dependent when the hoisted version conflicts; pnpm puts a package's
	// dependencies next to it, in the store directory its link points into.
	if err := s.nodeModules(filepath.Join(real, "node_modules")); err != nil {
		return err
	}
	if enclosing := enclosingNodeModules(real); enclosing != "" {
		return s.nodeModules(enclosing)
	}
	return nil
}

func (s *packageScan) add(packageName, packageVersion string, declared plugin.PulumiPluginJSON) {
	dep := &pulumirpc.PackageDependency{
		Kind:    string(apitype.ResourcePlugin),
		Name:    declared.Name,
		Version: declared.Version,
		Server:  declared.Server,
	}
	// Without a name or version, the plugin takes them from the package: `@pulumi/aws` 6.0.0 needs `aws` 6.0.0.
	if dep.Name == "" {
		dep.Name = packageName[strings.LastIndex(packageName, "/")+1:]
	}
	if dep.Version == "" {
		dep.Version = packageVersion
	}
	key := fmt.Sprintf("%s@%s %s", dep.Name, dep.Version, dep.Server)
	if p := declared.Parameterization; p != nil {
		dep.Parameterization = &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
		key += fmt.Sprintf(" as %s@%s", p.Name, p.Version)
	}
	if p := declared.ExtensionParameterization; p != nil {
		dep.Extension = &pulumirpc.PackageParameterization{Name: p.Name, Version: p.Version, Value: p.Value}
		key += fmt.Sprintf(" extended by %s@%s", p.Name, p.Version)
	}
	s.found[key] = dep
}

// enclosingNodeModules is the node_modules directory that holds the package in dir, or "" if none does.
func enclosingNodeModules(dir string) string {
	parent := filepath.Dir(dir)
	if strings.HasPrefix(filepath.Base(parent), "@") {
		parent = filepath.Dir(parent)
	}
	if filepath.Base(parent) == "node_modules" {
		return parent
	}
	return ""
}
