// pulumi-sdkgen-dotnet writes the .NET SDK of the `docs` provider plugin from its package schema with Pulumi's own C#
// generator. That generator left pulumi/pulumi's pkg/v3 after v3.225.1 for github.com/pulumi/pulumi-dotnet, whose
// module the Go module proxy refuses (403), so this tool is built on pkg/v3 v3.225.1, the newest release that still
// ships it (go.mod), while tools/pulumi-sdkgen writes the Python and Go SDKs at the CLI's version. A module of its own,
// since one build cannot hold two versions of pkg/v3. tools/gen-sdks.mjs runs it beside pulumi-sdkgen.
//
// Usage: pulumi-sdkgen-dotnet -schema <schema.json> -out <dir>   (writes <dir>/dotnet, emptied first)
package main

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"sort"

	"github.com/blang/semver"

	"github.com/pulumi/pulumi/pkg/v3/codegen/dotnet"
	"github.com/pulumi/pulumi/pkg/v3/codegen/schema"
)

const tool = "pulumi-docs-platform (tools/pulumi-sdkgen-dotnet)"

// The generator downloads the package icon from the schema's logoUrl, or else from a pulumi/pulumi URL on GitHub: a
// network fetch in the middle of code generation, which these machines cannot make and which would let a stranger's
// file change the SDK. Every request it makes is answered with this file instead.
//
//go:embed logo.png
var logo []byte

type embeddedLogo struct{}

func (embeddedLogo) RoundTrip(request *http.Request) (*http.Response, error) {
	return &http.Response{
		StatusCode: http.StatusOK,
		Header:     http.Header{"Content-Type": {"image/png"}},
		Body:       io.NopCloser(bytes.NewReader(logo)),
		Request:    request,
	}, nil
}

func main() {
	schemaPath := flag.String("schema", "provider/plugin/schema.json", "the package schema")
	out := flag.String("out", "sdk", "the directory the SDK is written under, as <out>/dotnet")
	flag.Parse()
	http.DefaultTransport = embeddedLogo{}
	if err := run(*schemaPath, filepath.Join(*out, "dotnet")); err != nil {
		fmt.Fprintf(os.Stderr, "pulumi-sdkgen-dotnet: %v\n", err)
		os.Exit(1)
	}
}

func run(schemaPath, dir string) error {
	text, err := os.ReadFile(schemaPath)
	if err != nil {
		return err
	}
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
	files, err := dotnet.GeneratePackage(tool, pkg, nil, nil)
	if err != nil {
		return fmt.Errorf("generating the .NET SDK: %w", err)
	}
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
	fmt.Printf("dotnet: %d files in %s\n", len(files), dir)
	return nil
}

// noDependencies: the schema refers to no other package's types (as in tools/pulumi-sdkgen).
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
