// Command pulumi-language-nodejs is a small stand-in for Pulumi's Node.js language host.
//
// Why it exists: `runtime: nodejs` makes the Pulumi engine start a plugin called
// `pulumi-language-nodejs`. The official one lives in its own Go module,
// github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3, and the Go module proxy
// does not serve that module at any version, while GitHub and get.pulumi.com (where the release
// tarballs live) are unreachable from our build machines. Everything else we need (the CLI,
// sdk/v3) can be built from the proxy, so this module re-implements the part of the official
// host's main.go that running a program needs, using only github.com/pulumi/pulumi/sdk/v3.
//
// What it supports, mirroring the official host at the same release:
//   - startup: `pulumi-language-nodejs [-tracing url] [glog flags] <engine address>`, serves
//     LanguageRuntime over gRPC on a kernel-chosen port and prints that port on stdout;
//   - Handshake, GetPluginInfo, Run (preview/up/refresh/destroy, Automation API with a workDir
//     program), Cancel, InstallDependencies (`pulumi install`), About, GetProgramDependencies,
//     RuntimeOptionsPrompts, Template;
//   - RunPlugin (runplugin.go): policy packs and other plugins written in Node.js, run from their
//     directories; GetRequiredPackages (requiredpackages.go): the plugins that the program's npm
//     packages declare;
//   - Pulumi.yaml runtime options typescript (default true), tsconfig, nodeargs, packagemanager.
//
// What it leaves out:
//   - the official host runs a gRPC proxy in front of the resource monitor plus a pair of
//     pipes for synchronous invokes. @pulumi/pulumi no longer reads those pipes
//     (runtime/settings.js tryGetSyncInvokes has no caller), so the program talks to the
//     engine's monitor directly;
//   - debugger attach, the bun runtime, and the code generation RPCs (GenerateProgram/Project/
//     Package, Pack, Link), which need github.com/pulumi/pulumi/pkg/v3. They answer
//     codes.Unimplemented;
//   - RunPlugin does not hand a plugin the engine's schema loader (RunPluginRequest.loader_target):
//     @pulumi/pulumi 3.259 has no way to receive it.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"strings"

	"github.com/google/shlex"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/plugin"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/contract"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/executable"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	"github.com/pulumi/pulumi/sdk/v3/nodejs/npm"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

const (
	// Resolved from the program directory, so the program's own copy of the SDK runs it.
	// PULUMI_LANGUAGE_NODEJS_RUN_PATH overrides it, as in the official host.
	defaultRunPath = "@pulumi/pulumi/cmd/run"

	// cmd/run exits with this code after it has already logged an actionable error through
	// the engine; the engine then must not print a second, generic error.
	nodeJSProcessExitedAfterShowingUserActionableMessage = 32
)

func main() {
	var tracing string
	flag.StringVar(&tracing, "tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	showVersion := flag.Bool("version", false, "Print the current plugin version and exit")
	flag.Parse()

	if *showVersion {
		fmt.Println(version.Version)
		os.Exit(0)
	}

	logging.InitLogging(false, 0, false)
	cmdutil.InitTracing("pulumi-language-nodejs", "pulumi-language-nodejs", tracing)

	var engineAddress string
	if args := flag.Args(); len(args) > 0 {
		engineAddress = args[0]
	}

	ctx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		cancel()
		close(cancelChannel)
	}()

	host := newLanguageHost(engineAddress, tracing)
	// Exit on our own when the engine goes away, so no orphaned host is left behind.
	if engineAddress != "" {
		if err := host.watchEngine(engineAddress); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check host RPC server: %w", err))
		}
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}

	// The engine reads the port from our first line of stdout.
	fmt.Printf("%d\n", handle.Port)

	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}

type nodeLanguageHost struct {
	// Answers codes.Unimplemented for every RPC not defined below.
	pulumirpc.UnimplementedLanguageRuntimeServer

	engineAddress string
	tracing       string
	cancelCtx     context.Context // cancelled by the Cancel RPC
	cancelFunc    context.CancelFunc
}

func newLanguageHost(engineAddress, tracing string) *nodeLanguageHost {
	ctx, cancel := context.WithCancel(context.Background())
	return &nodeLanguageHost{
		engineAddress: engineAddress,
		tracing:       tracing,
		cancelCtx:     ctx,
		cancelFunc:    cancel,
	}
}

// nodeOptions are the `runtime.options` of Pulumi.yaml.
type nodeOptions struct {
	typescript     bool
	tsconfigpath   string
	nodeargs       string
	packagemanager npm.PackageManagerType
}

func parseOptions(options map[string]any) (nodeOptions, error) {
	opts := nodeOptions{typescript: true, packagemanager: npm.AutoPackageManager}

	if v, ok := options["typescript"]; ok {
		b, ok := v.(bool)
		if !ok {
			return opts, errors.New("typescript option must be a boolean")
		}
		opts.typescript = b
	}
	if v, ok := options["tsconfig"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, errors.New("tsconfigpath option must be a string")
		}
		opts.tsconfigpath = s
	}
	if v, ok := options["nodeargs"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, errors.New("nodeargs option must be a string")
		}
		opts.nodeargs = s
	}
	if v, ok := options["packagemanager"]; ok {
		s, ok := v.(string)
		if !ok {
			return opts, errors.New("packagemanager option must be a string")
		}
		switch pm := npm.PackageManagerType(s); pm {
		case npm.AutoPackageManager, npm.NpmPackageManager, npm.YarnPackageManager,
			npm.PnpmPackageManager, npm.BunPackageManager:
			opts.packagemanager = pm
		default:
			return opts, fmt.Errorf("packagemanager option must be one of auto, npm, yarn, pnpm or bun, got %q", s)
		}
	}
	return opts, nil
}

func (host *nodeLanguageHost) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	host.engineAddress = req.EngineAddress

	if err := host.watchEngine(host.engineAddress); err != nil {
		cmdutil.Exit(fmt.Errorf("could not start health check host RPC server: %w", err))
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (host *nodeLanguageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// locateModule resolves mod with node's require.resolve from programDir, i.e. against the
// program's own node_modules.
func locateModule(mod, programDir, nodeBin string) (string, error) {
	// A single line, like the official host (Volta shims on Windows mangle newlines).
	script := fmt.Sprintf(`try { console.log(require.resolve('%s')); } catch (error) { `+
		`if (error.code === 'MODULE_NOT_FOUND') { console.error("It looks like the Pulumi SDK has not been `+
		`installed. Have you run pulumi install?") } else { console.error(error.message); } process.exit(1); }`, mod)
	cmd := exec.Command(nodeBin, "-e", script)
	cmd.Dir = programDir
	out, err := cmd.Output()
	if err != nil {
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return "", errors.New(string(ee.Stderr))
		}
		return "", err
	}
	return strings.TrimSpace(string(out)), nil
}

func (host *nodeLanguageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if host.engineAddress == "" {
		return nil, errors.New("when debugging or running explicitly, must call Handshake before Run")
	}

	nodeBin, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the $PATH: " + err.Error()}, nil
	}

	runPath := os.Getenv("PULUMI_LANGUAGE_NODEJS_RUN_PATH")
	if runPath == "" {
		runPath = defaultRunPath
	}
	runPath, err = locateModule(runPath, req.GetInfo().GetProgramDirectory(), nodeBin)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}

	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	env, err := host.constructEnv(req, opts)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	nodeArgs, err := shlex.Split(opts.nodeargs)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	args := append(nodeArgs, host.constructArguments(req, runPath)...)

	logging.V(5).Infof("Language host launching process: %s %s", nodeBin, strings.Join(args, " "))

	// Stop the program when either the Cancel RPC fires or the engine abandons this request.
	cmdCtx, cmdCancel := context.WithCancel(host.cancelCtx)
	defer cmdCancel()
	context.AfterFunc(ctx, cmdCancel)
	cmd := exec.CommandContext(cmdCtx, nodeBin, args...)
	interruptOnCancel(cmd)
	cmd.Env = env
	// Node may switch a shared stdout/stderr to non-blocking mode, which breaks later writes
	// from Go; wrapping the writers makes exec copy through its own pipes instead.
	cmd.Stdout = struct{ io.Writer }{os.Stdout}
	cmd.Stderr = struct{ io.Writer }{os.Stderr}

	if err := cmd.Run(); err != nil {
		// Flush so the engine has every line the program printed before it reports the failure.
		contract.IgnoreError(os.Stdout.Sync())
		contract.IgnoreError(os.Stderr.Sync())

		var exiterr *exec.ExitError
		if !errors.As(err, &exiterr) {
			return &pulumirpc.RunResponse{
				Error: fmt.Sprintf("Problem executing program (could not run language executor): %v", err),
			}, nil
		}
		switch code := exiterr.ExitCode(); code {
		case 0:
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited unexpectedly: %v", exiterr)}, nil
		case nodeJSProcessExitedAfterShowingUserActionableMessage:
			return &pulumirpc.RunResponse{Bail: true}, nil
		default:
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
		}
	}
	return &pulumirpc.RunResponse{}, nil
}

// constructArguments builds the argv for @pulumi/pulumi/cmd/run, which parses it with minimist
// and copies it into PULUMI_NODEJS_* variables for the SDK.
func (host *nodeLanguageHost) constructArguments(req *pulumirpc.RunRequest, runPath string) []string {
	args := []string{runPath}
	maybeAppendArg := func(k, v string) {
		if v != "" {
			args = append(args, "--"+k, v)
		}
	}

	maybeAppendArg("monitor", req.GetMonitorAddress())
	maybeAppendArg("engine", host.engineAddress)
	maybeAppendArg("organization", req.GetOrganization())
	maybeAppendArg("project", req.GetProject())
	maybeAppendArg("root-directory", req.GetInfo().GetRootDirectory())
	maybeAppendArg("stack", req.GetStack())
	maybeAppendArg("pwd", req.GetInfo().GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	maybeAppendArg("parallel", strconv.Itoa(int(req.GetParallel())))
	maybeAppendArg("tracing", host.tracing)

	// The engine always sends an entry point, "." for the program directory itself.
	args = append(args, req.GetInfo().GetEntryPoint())
	return append(args, req.GetArgs()...)
}

func (host *nodeLanguageHost) constructEnv(req *pulumirpc.RunRequest, opts nodeOptions) ([]string, error) {
	configVars, err := configEnv(req.GetConfig(), req.GetConfigSecretKeys())
	if err != nil {
		return nil, err
	}
	env := append(os.Environ(), configVars...)
	if opts.typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if opts.tsconfigpath != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+opts.tsconfigpath)
	}
	return env, nil
}

// configEnv is stack configuration as the SDK reads it: PULUMI_CONFIG and PULUMI_CONFIG_SECRET_KEYS.
func configEnv(stackConfig map[string]string, secretKeys []string) ([]string, error) {
	// Older SDKs only understand the `<namespace>:config:<name>` key form; current ones accept both.
	cfg := make(map[string]string, len(stackConfig))
	for k, v := range stackConfig {
		pk, err := config.ParseKey(k)
		if err != nil {
			return nil, fmt.Errorf("failed to serialize configuration: %w", err)
		}
		cfg[pk.Namespace()+":config:"+pk.Name()] = v
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration: %w", err)
	}
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretKeysJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, fmt.Errorf("failed to serialize configuration secret keys: %w", err)
	}
	return []string{"PULUMI_CONFIG=" + string(cfgJSON), "PULUMI_CONFIG_SECRET_KEYS=" + string(secretKeysJSON)}, nil
}

func (host *nodeLanguageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	host.cancelFunc()
	return &emptypb.Empty{}, nil
}

func (host *nodeLanguageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.IsTerminal)
	if err != nil {
		return err
	}
	defer closer.Close()

	fmt.Fprintf(stdout, "Installing dependencies...\n\n")

	// Install at the root of an npm/yarn/pnpm workspace, so hoisted packages end up in place.
	root := req.GetInfo().GetProgramDirectory()
	if wsRoot, err := npm.FindWorkspaceRoot(root); err == nil {
		fmt.Fprintf(stdout, "Detected workspace root at %s\n", wsRoot)
		root = wsRoot
	} else if !errors.Is(err, npm.ErrNotInWorkspace) {
		return fmt.Errorf("failure while trying to find workspace root: %w", err)
	}

	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return fmt.Errorf("failed to parse options: %w", err)
	}
	if _, err := npm.Install(server.Context(), opts.packagemanager, root, false /*production*/, stdout, stderr); err != nil {
		return err
	}

	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

func (host *nodeLanguageHost) RuntimeOptionsPrompts(
	ctx context.Context, req *pulumirpc.RuntimeOptionsRequest,
) (*pulumirpc.RuntimeOptionsResponse, error) {
	var prompts []*pulumirpc.RuntimeOptionPrompt
	if _, has := req.GetInfo().GetOptions().AsMap()["packagemanager"]; !has {
		prompts = append(prompts, &pulumirpc.RuntimeOptionPrompt{
			Key:         "packagemanager",
			Description: "The package manager to use for installing dependencies",
			PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
			Choices:     plugin.MakeExecutablePromptChoices("npm", "pnpm", "yarn", "bun"),
			Default: &pulumirpc.RuntimeOptionPrompt_RuntimeOptionValue{
				PromptType:  pulumirpc.RuntimeOptionPrompt_STRING,
				StringValue: "npm",
			},
		})
	}
	return &pulumirpc.RuntimeOptionsResponse{Prompts: prompts}, nil
}

func (host *nodeLanguageHost) Template(
	context.Context, *pulumirpc.TemplateRequest,
) (*pulumirpc.TemplateResponse, error) {
	return &pulumirpc.TemplateResponse{}, nil
}

func (host *nodeLanguageHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, fmt.Errorf("failed to parse options: %w", err)
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("could not resolve packagemanager: %w", err)
	}
	nodeBin, err := executable.FindExecutable("node")
	if err != nil {
		return nil, fmt.Errorf("could not find executable %q: %w", "node", err)
	}

	// Version lookups are best effort, as in the official host.
	var nodeVersion, pmVersion string
	if out, err := exec.CommandContext(ctx, nodeBin, "--version").Output(); err == nil {
		nodeVersion = strings.TrimSpace(string(out))
	}
	if v, err := pm.Version(); err == nil {
		pmVersion = v.String()
	}
	return &pulumirpc.AboutResponse{
		Executable: nodeBin,
		Version:    nodeVersion,
		Metadata: map[string]string{
			"packagemanager":        pm.Name(),
			"packagemanagerVersion": pmVersion,
		},
	}, nil
}

func (host *nodeLanguageHost) GetProgramDependencies(
	ctx context.Context, req *pulumirpc.GetProgramDependenciesRequest,
) (*pulumirpc.GetProgramDependenciesResponse, error) {
	opts, err := parseOptions(req.GetInfo().GetOptions().AsMap())
	if err != nil {
		return nil, fmt.Errorf("failed to parse options: %w", err)
	}
	pm, err := npm.ResolvePackageManager(opts.packagemanager, req.GetInfo().GetProgramDirectory())
	if err != nil {
		return nil, fmt.Errorf("failed to determine package manager: %w", err)
	}
	packages, err := pm.ListPackages(ctx, req.GetInfo().GetProgramDirectory(), req.GetTransitiveDependencies())
	if err != nil {
		return nil, fmt.Errorf("failed to get node dependencies: %w", err)
	}
	deps := make([]*pulumirpc.DependencyInfo, len(packages))
	for i, pkg := range packages {
		deps[i] = &pulumirpc.DependencyInfo{Name: pkg.Name, Version: pkg.Version}
	}
	return &pulumirpc.GetProgramDependenciesResponse{Dependencies: deps}, nil
}
