package main

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// writeManifest writes dir/package.json with the given fields.
func writeManifest(t *testing.T, dir string, fields map[string]any) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := json.Marshal(fields)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "package.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

func symlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(link), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}

func requiredPackagesOf(t *testing.T, programDir string) []string {
	t.Helper()
	host := newLanguageHost("", "")
	resp, err := host.GetRequiredPackages(context.Background(), &pulumirpc.GetRequiredPackagesRequest{
		Info: &pulumirpc.ProgramInfo{RootDirectory: programDir, ProgramDirectory: programDir, EntryPoint: "."},
	})
	if err != nil {
		t.Fatal(err)
	}
	got := make([]string, len(resp.Packages))
	for i, p := range resp.Packages {
		got[i] = p.Kind + " " + p.Name + "@" + p.Version
		if p.Server != "" {
			got[i] += " from " + p.Server
		}
		if p.Parameterization != nil {
			got[i] += " as " + p.Parameterization.Name + "@" + p.Parameterization.Version + " " +
				string(p.Parameterization.Value)
		}
	}
	return got
}

func TestGetRequiredPackagesReadsPluginDeclarationsInNodeModules(t *testing.T) {
	program := t.TempDir()
	writeManifest(t, program, map[string]any{"name": "program", "version": "1.0.0"})
	nm := filepath.Join(program, "node_modules")

	// A generated provider SDK, with everything declared.
	writeManifest(t, filepath.Join(nm, "@pulumi", "aws"), map[string]any{
		"name": "@pulumi/aws", "version": "6.1.0",
		"pulumi": map[string]any{"resource": true, "name": "aws", "version": "6.1.0", "server": "https://plugins.example"},
	})
	// An older SDK that declares only that it has a plugin: name and version come from the package.
	writeManifest(t, filepath.Join(nm, "@acme", "legacy"), map[string]any{
		"name": "@acme/legacy", "version": "2.0.0", "pulumi": map[string]any{"resource": true},
	})
	// A parameterized package (a bridged Terraform provider, say); the value is base64 in JSON.
	writeManifest(t, filepath.Join(nm, "tfx"), map[string]any{
		"name": "tfx", "version": "0.1.0",
		"pulumi": map[string]any{
			"resource": true, "name": "terraform-provider", "version": "0.8.0",
			"parameterization": map[string]any{"name": "tfx", "version": "0.1.0", "value": "cGFyYW0="},
		},
	})
	// npm nests a conflicting version under its dependent; the same version twice counts once.
	writeManifest(t, filepath.Join(nm, "component"), map[string]any{"name": "component", "version": "1.0.0"})
	writeManifest(t, filepath.Join(nm, "component", "node_modules", "@pulumi", "aws"), map[string]any{
		"name": "@pulumi/aws", "version": "5.0.0", "pulumi": map[string]any{"resource": true, "name": "aws"},
	})
	writeManifest(t, filepath.Join(nm, "other", "node_modules", "@pulumi", "aws"), map[string]any{
		"name": "@pulumi/aws", "version": "6.1.0",
		"pulumi": map[string]any{"resource": true, "name": "aws", "version": "6.1.0", "server": "https://plugins.example"},
	})
	// pnpm: a direct dependency is a link into the store; its own dependencies are its siblings there.
	store := filepath.Join(nm, ".pnpm")
	writeManifest(t, filepath.Join(store, "wrapper@1.0.0", "node_modules", "wrapper"), map[string]any{
		"name": "wrapper", "version": "1.0.0",
	})
	writeManifest(t, filepath.Join(store, "@pulumi+random@4.16.0", "node_modules", "@pulumi", "random"), map[string]any{
		"name": "@pulumi/random", "version": "4.16.0", "pulumi": map[string]any{"resource": true, "name": "random"},
	})
	symlink(t, filepath.Join(store, "wrapper@1.0.0", "node_modules", "wrapper"), filepath.Join(nm, "wrapper"))
	symlink(t, filepath.Join(store, "@pulumi+random@4.16.0", "node_modules", "@pulumi", "random"),
		filepath.Join(store, "wrapper@1.0.0", "node_modules", "@pulumi", "random"))

	// None of these declares a plugin.
	writeManifest(t, filepath.Join(nm, "@pulumi", "pulumi"), map[string]any{"name": "@pulumi/pulumi", "version": "3.259.0"})
	writeManifest(t, filepath.Join(nm, "no-plugin"), map[string]any{
		"name": "no-plugin", "version": "1.0.0", "pulumi": map[string]any{"resource": false, "name": "nope"},
	})
	writeManifest(t, filepath.Join(nm, "odd"), map[string]any{"name": "odd", "version": "1.0.0", "pulumi": "yes"})
	if err := os.MkdirAll(filepath.Join(nm, "broken-manifest"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(nm, "broken-manifest", "package.json"), []byte("{"), 0o600); err != nil {
		t.Fatal(err)
	}
	symlink(t, filepath.Join(nm, "gone"), filepath.Join(nm, "dangling"))
	symlink(t, nm, filepath.Join(nm, "component", "node_modules", "loop"))

	got := requiredPackagesOf(t, program)
	want := []string{
		"resource aws@5.0.0",
		"resource aws@6.1.0 from https://plugins.example",
		"resource legacy@2.0.0",
		"resource random@4.16.0",
		"resource terraform-provider@0.8.0 as tfx@0.1.0 param",
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
}

func TestGetRequiredPackagesWithoutNodeModulesIsEmpty(t *testing.T) {
	program := t.TempDir()
	writeManifest(t, program, map[string]any{"name": "program", "version": "1.0.0"})
	if got := requiredPackagesOf(t, program); len(got) != 0 {
		t.Fatalf("got %q, want none", got)
	}
}

func TestGetRequiredPackagesIncludesTheWorkspaceRoot(t *testing.T) {
	root := t.TempDir()
	writeManifest(t, root, map[string]any{"name": "root", "private": true, "workspaces": []string{"infra"}})
	program := filepath.Join(root, "infra")
	writeManifest(t, program, map[string]any{"name": "infra", "version": "1.0.0"})
	// npm hoists the workspace's dependencies to the root's node_modules.
	writeManifest(t, filepath.Join(root, "node_modules", "@pulumi", "gcp"), map[string]any{
		"name": "@pulumi/gcp", "version": "8.0.0", "pulumi": map[string]any{"resource": true, "name": "gcp"},
	})
	got := requiredPackagesOf(t, program)
	if len(got) != 1 || got[0] != "resource gcp@8.0.0" {
		t.Fatalf("got %q, want [resource gcp@8.0.0]", got)
	}
}
