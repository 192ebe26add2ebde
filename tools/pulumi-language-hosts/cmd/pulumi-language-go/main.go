// Command pulumi-language-go is this project's stand-in for Pulumi's Go language host (`runtime: go`): Run builds
// the program with `go build` into a temporary directory and runs the binary from the program's directory, with the
// settings the Go SDK reads from PULUMI_* variables (../../host). InstallDependencies is `go mod download`.
// Left out of the official host: a prebuilt `binary` runtime option, `buildTarget`, debugging, and the code
// generation RPCs.
package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"pulumi-docs-platform/tools/pulumi-language-hosts/host"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

type goLanguage struct{}

func (goLanguage) Command(ctx context.Context, req *pulumirpc.RunRequest, _ string) (*exec.Cmd, func(), error) {
	dir := req.GetInfo().GetProgramDirectory()
	out, err := os.MkdirTemp("", "pulumi-go-program-")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { _ = os.RemoveAll(out) }
	binary := filepath.Join(out, "program")
	build := exec.CommandContext(ctx, "go", "build", "-o", binary, req.GetInfo().GetEntryPoint())
	build.Dir = dir
	build.Stdout = os.Stderr
	build.Stderr = os.Stderr
	if err := build.Run(); err != nil {
		return nil, cleanup, fmt.Errorf("go build of the program in %s failed: %w (see the compiler's output above)", dir, err)
	}
	return exec.CommandContext(ctx, binary, req.GetArgs()...), cleanup, nil
}

func (goLanguage) Install(ctx context.Context, info *pulumirpc.ProgramInfo, stdout, stderr io.Writer) error {
	cmd := exec.CommandContext(ctx, "go", "mod", "download")
	cmd.Dir = info.GetProgramDirectory()
	cmd.Stdout = stdout
	cmd.Stderr = stderr
	return cmd.Run()
}

func main() {
	host.Main("pulumi-language-go", goLanguage{})
}
