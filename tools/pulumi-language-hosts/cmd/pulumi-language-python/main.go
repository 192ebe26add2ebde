// Command pulumi-language-python is this project's stand-in for Pulumi's Python language host (`runtime: python`):
// Run starts the program (its `main`, default `__main__.py` of the program's directory) with the Python of the
// program's virtual environment, through exec.py, which configures the SDK from the PULUMI_* variables (../../host)
// and runs the program inside its stack. The virtual environment is the runtime option `virtualenv` (default
// `venv`, relative to the program's directory); InstallDependencies creates it and installs requirements.txt.
// Left out of the official host: the `toolchain` options (poetry, uv), type checkers, debugging, and the code
// generation RPCs.
package main

import (
	"context"
	_ "embed"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"pulumi-docs-platform/tools/pulumi-language-hosts/host"

	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

//go:embed exec.py
var execScript []byte

type pythonLanguage struct{}

// virtualenv is the program's virtual environment, from its `virtualenv` runtime option.
func virtualenv(info *pulumirpc.ProgramInfo) string {
	venv := "venv"
	if v, ok := info.GetOptions().AsMap()["virtualenv"].(string); ok && v != "" {
		venv = v
	}
	if !filepath.IsAbs(venv) {
		venv = filepath.Join(info.GetProgramDirectory(), venv)
	}
	return venv
}

func (pythonLanguage) Command(ctx context.Context, req *pulumirpc.RunRequest, _ string) (*exec.Cmd, func(), error) {
	python := filepath.Join(virtualenv(req.GetInfo()), "bin", "python")
	if _, err := os.Stat(python); err != nil {
		return nil, nil, fmt.Errorf("the program's virtual environment has no %s: run `pulumi install` (it creates it "+
			"and installs requirements.txt)", python)
	}
	script, err := os.CreateTemp("", "pulumi-language-python-exec-*.py")
	if err != nil {
		return nil, nil, err
	}
	cleanup := func() { _ = os.Remove(script.Name()) }
	if _, err := script.Write(execScript); err != nil {
		return nil, cleanup, err
	}
	if err := script.Close(); err != nil {
		return nil, cleanup, err
	}
	program := filepath.Join(req.GetInfo().GetProgramDirectory(), req.GetInfo().GetEntryPoint())
	cmd := exec.CommandContext(ctx, python, append([]string{"-u", script.Name(), program}, req.GetArgs()...)...)
	cmd.Env = []string{"PYTHONUNBUFFERED=1"}
	return cmd, cleanup, nil
}

func (pythonLanguage) Install(ctx context.Context, info *pulumirpc.ProgramInfo, stdout, stderr io.Writer) error {
	venv := virtualenv(info)
	steps := [][]string{{"python3", "-m", "venv", venv}}
	requirements := filepath.Join(info.GetProgramDirectory(), "requirements.txt")
	if _, err := os.Stat(requirements); err == nil {
		steps = append(steps, []string{filepath.Join(venv, "bin", "python"), "-m", "pip", "install", "-r", requirements})
	}
	for _, step := range steps {
		cmd := exec.CommandContext(ctx, step[0], step[1:]...)
		cmd.Dir = info.GetProgramDirectory()
		cmd.Stdout = stdout
		cmd.Stderr = stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%v failed: %w", step, err)
		}
	}
	return nil
}

func main() {
	host.Main("pulumi-language-python", pythonLanguage{})
}
