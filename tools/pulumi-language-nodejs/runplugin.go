package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/google/shlex"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/contract"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// The SDK's launchers for plugins, resolved from the plugin's directory like defaultRunPath.
const (
	runPluginPath     = "@pulumi/pulumi/cmd/run-plugin"
	runPolicyPackPath = "@pulumi/pulumi/cmd/run-policy-pack"
)

// RunPlugin runs a plugin written in Node.js from its directory: a policy pack (kind "analyzer", a directory with
// PulumiPolicy.yaml, as `pulumi preview --policy-pack <dir>` starts it) or a resource, tool or converter plugin (a
// directory with PulumiPlugin.yaml, as `pulumi plugin run <dir>` starts it). The plugin's stdout and stderr stream
// back to the engine, which reads the plugin's gRPC port from the first line of stdout; the last message is its exit
// code.
func (host *nodeLanguageHost) RunPlugin(
	req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer,
) error {
	if req.GetAttachDebugger() {
		return status.Error(codes.Unimplemented, "this Node.js language host cannot start plugins under a debugger")
	}
	ctx := server.Context()
	sends := &serializedSends{LanguageRuntime_RunPluginServer: server}
	closer, stdout, stderr, err := rpcutil.MakeRunPluginStreams(sends, false /*isTerminal*/)
	if err != nil {
		return err
	}
	defer contract.IgnoreClose(closer)

	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("could not find node on the $PATH: %w", err)
	}
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return err
	}
	nodeArgs, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return fmt.Errorf("nodeargs option: %w", err)
	}

	pluginDir := req.GetInfo().GetProgramDirectory()
	isPolicyPack := req.GetKind() == string(apitype.AnalyzerPlugin)
	launcher := runPluginPath
	if isPolicyPack {
		launcher = runPolicyPackPath
	}
	// The plugin's own copy of the SDK runs it, so a pack works whatever SDK the stack's program uses.
	launcherPath, err := locateModule(launcher, pluginDir, nodeBin)
	if err != nil {
		return fmt.Errorf("cannot start the plugin in %s, because %s does not resolve there (%s); "+
			"are its dependencies installed? Run npm install in that directory",
			pluginDir, launcher, strings.TrimSpace(err.Error()))
	}

	args := append(nodeArgs, launcherPath)
	if isPolicyPack {
		// run-policy-pack drops its first argument, the engine address; @pulumi/policy never reads it.
		args = append(args, host.engineAddress)
	}
	// After "--" the engine's arguments (--logtostderr, -v=9, the engine address) skip the launcher's own flag
	// parsing and reach the plugin's process.argv as given.
	args = append(args, filepath.Join(pluginDir, req.GetInfo().GetEntryPoint()), "--")
	args = append(args, req.GetArgs()...)

	cmd := exec.CommandContext(ctx, nodeBin, args...)
	interruptOnCancel(cmd)
	cmd.Env = append(os.Environ(), req.GetEnv()...)
	cmd.Dir = req.GetPwd()
	if isPolicyPack || cmd.Dir == "" {
		// @pulumi/policy reads the pack's version from ./package.json.
		cmd.Dir = pluginDir
	}
	logging.V(5).Infof("Language host launching %s plugin: %s %v", req.GetKind(), nodeBin, args)

	if isPolicyPack {
		return runPolicyPack(ctx, cmd, sends, stdout, stderr)
	}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	return sendExitCode(sends, cmd.Run())
}

// runPolicyPack starts cmd, a policy pack, behind sdk.PolicyProxy. The engine sends the stack's name and config in
// ConfigureStack, after the pack has started, but @pulumi/policy (like @pulumi/pulumi's Config and getStack) reads
// them from the environment at startup. So the proxy answers on the port the engine reads, takes ConfigureStack,
// the pack then starts with that environment, and the proxy forwards every other call to the pack.
func runPolicyPack(
	ctx context.Context, cmd *exec.Cmd, sends *serializedSends, stdout, stderr io.Writer,
) error {
	proxy, packStdout, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return fmt.Errorf("could not start the policy pack proxy: %w", err)
	}
	stack, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return err
	}
	stackEnv, err := policyPackEnv(stack)
	if err != nil {
		return err
	}
	cmd.Env = append(cmd.Env, stackEnv...)
	cmd.Stdout, cmd.Stderr = packStdout, stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not start the policy pack: %w", err)
	}
	// Attach waits for the pack to exit. It fails without an exit status when the pack never printed its port, and
	// when the engine is gone; returning then cancels ctx, which stops the pack.
	err = proxy.Attach(ctx, cmd)
	var exitErr *exec.ExitError
	if err != nil && !errors.As(err, &exitErr) {
		return err
	}
	return sendExitCode(sends, err)
}

// policyPackEnv is what @pulumi/pulumi reads at startup about the stack under analysis. The stack is nil when the
// engine analyzes no stack (`pulumi policy publish`).
func policyPackEnv(stack *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	if stack == nil {
		return nil, nil
	}
	env, err := configEnv(stack.GetConfig(), stack.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env = append(env, "PULUMI_NODEJS_DRY_RUN="+strconv.FormatBool(stack.GetDryRun()))
	for _, v := range [][2]string{
		{"PULUMI_NODEJS_ORGANIZATION", stack.GetOrganization()},
		{"PULUMI_NODEJS_PROJECT", stack.GetProject()},
		{"PULUMI_NODEJS_STACK", stack.GetStack()},
	} {
		if v[1] != "" {
			env = append(env, v[0]+"="+v[1])
		}
	}
	return env, nil
}

// sendExitCode ends a RunPlugin stream with the plugin's exit code, given what waiting for the plugin returned.
func sendExitCode(sends *serializedSends, waitErr error) error {
	var exitErr *exec.ExitError
	code := 0
	switch {
	case errors.As(waitErr, &exitErr):
		code = exitErr.ExitCode()
	case waitErr != nil:
		return fmt.Errorf("could not run the plugin: %w", waitErr)
	}
	return sends.Send(&pulumirpc.RunPluginResponse{Output: &pulumirpc.RunPluginResponse_Exitcode{Exitcode: int32(code)}})
}

// interruptOnCancel makes cancelling cmd's context interrupt node, so it can shut down, and kill it 5 seconds later.
func interruptOnCancel(cmd *exec.Cmd) {
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
}

// serializedSends guards Send: the plugin's stdout and stderr are copied to the stream by separate goroutines, and a
// gRPC stream allows one sender at a time.
type serializedSends struct {
	pulumirpc.LanguageRuntime_RunPluginServer
	mu sync.Mutex
}

func (s *serializedSends) Send(response *pulumirpc.RunPluginResponse) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.LanguageRuntime_RunPluginServer.Send(response)
}
