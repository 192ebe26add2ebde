// pulumi-sdkgen writes the language SDKs of the `docs` provider plugin from its package schema
// (provider/plugin/schema.json) with Pulumi's own code generators, pkg/v3/codegen at the CLI's version: what
// `pulumi package gen-sdk` runs inside each language host's GeneratePackage, without the hosts (the official Python
// and Go hosts are not served by the Go module proxy). tools/gen-sdks.mjs builds it into .tools/bin and runs it from
// `npm run docs`; `npm run docs:check` compares its output with sdk/.
//
// Usage: pulumi-sdkgen -schema <schema.json> -out <dir> <language>...   (languages: python, go)
//
// Each language's files are written under <dir>/<language>, which is emptied first so that a file the generator no
// longer writes does not linger.
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"

	"github.com/blang/semver"
	"golang.org/x/mod/modfile"

	gogen "github.com/pulumi/pulumi/pkg/v3/codegen/go"
	"github.com/pulumi/pulumi/pkg/v3/codegen/python"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

// tool is the generator's name, which each generated file's header names.
const tool = "pulumi-docs-platform (tools/pulumi-sdkgen)"

func main() {
	schemaPath := flag.String("schema", "provider/plugin/schema.json", "the package schema")
	out := flag.String("out", "sdk", "the directory the languages' SDKs are written under")
	flag.Parse()
	if err := run(*schemaPath, *out, flag.Args()); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-sdkgen: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, out string, languages []string) error {
	if len(languages) == 0 {
		return fmt.Errorf("name the languages to generate: python, go")
	}
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
	for _, language := range languages {
		// Each generator imports its own language section into the package: bind afresh for each.
		var spec schema.PackageSpec
		if err := json.Unmarshal(text, &spec); err != nil {
			return fmt.Errorf("%s: %w", schemaPath, err)
		}
		pkg, diags, err := schema.BindSpec(spec, noDependencies{}, schema.ValidationOptions{})
		if err != nil {
			return fmt.Errorf("%s: %w", schemaPath, err)
		}
		if diags.HasErrors() {
			return fmt.Errorf("%s is not a valid package schema: %s", schemaPath, diags.Error())
		}
		var files map[string][]byte
		switch language {
		case "python":
			files, err = python.GeneratePackage(tool, pkg, nil, noDependencies{})
		case "go":
			files, err = gogen.GeneratePackage(tool, pkg, nil)
			if err == nil {
				err = addGoModule(pkg, files)
			}
		default:
			return fmt.Errorf("unknown language %q: this tool generates python and go", language)
		}
		if err != nil {
			return fmt.Errorf("generating the %s SDK: %w", language, err)
		}
		if err := write(filepath.Join(out, language), files); err != nil {
			return err
		}
		fmt.Printf("%s: %d files in %s\n", language, len(files), filepath.Join(out, language))
	}
	return nil
}

// addGoModule writes the Go SDK's go.mod, which the generator leaves to the repository (it writes one only for
// packages of `pulumi package add`): the module of the schema's language.go.modulePath, requiring the Pulumi Go SDK
// this tool is built with, the CLI's version (tools/pulumi-sdkgen/go.mod pins it with the CLI's).
func addGoModule(pkg *schema.Package, files map[string][]byte) error {
	info, _ := pkg.Language["go"].(gogen.GoPackageInfo)
	if info.ModulePath == "" {
		return fmt.Errorf("the schema's language.go has no modulePath: the Go SDK's go.mod needs one")
	}
	sdk := ""
	if build, ok := debug.ReadBuildInfo(); ok {
		for _, dep := range build.Deps {
			if dep.Path == "github.com/pulumi/pulumi/sdk/v3" {
				sdk = dep.Version
			}
		}
	}
	if sdk == "" {
		return fmt.Errorf("this build of pulumi-sdkgen does not record the Pulumi Go SDK's version")
	}
	var mod modfile.File
	if err := mod.AddModuleStmt(info.ModulePath); err != nil {
		return err
	}
	if err := mod.AddGoStmt("1.25"); err != nil {
		return err
	}
	if err := mod.AddRequire("github.com/pulumi/pulumi/sdk/v3", sdk); err != nil {
		return err
	}
	text, err := mod.Format()
	if err != nil {
		return err
	}
	files["go.mod"] = text
	return nil
}

func write(dir string, files map[string][]byte) error {
	if err := os.RemoveAll(dir); err != nil {
		return err
	}
	names := make([]string, 0, len(files))
	for name := range files {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, files[name], 0o644); err != nil {
			return err
		}
	}
	return nil
}

// noDependencies is the loader of a package that refers to no other package's types (the schema's only reference
// outside itself is pulumi.json#/Any): a request to load one is a schema error, named.
type noDependencies struct{}

func (noDependencies) LoadPackage(name string, _ *semver.Version) (*schema.Package, error) {
	return nil, fmt.Errorf("the schema refers to package %q: this generator loads no other package", name)
}

func (l noDependencies) LoadPackageV2(_ context.Context, d *schema.PackageDescriptor) (*schema.Package, error) {
	return l.LoadPackage(d.Name, nil)
}

func (l noDependencies) LoadPackageReference(name string, v *semver.Version) (schema.PackageReference, error) {
	_, err := l.LoadPackage(name, v)
	return nil, err
}

func (l noDependencies) LoadPackageReferenceV2(
	_ context.Context, d *schema.PackageDescriptor,
) (schema.PackageReference, error) {
	return l.LoadPackageReference(d.Name, nil)
}
