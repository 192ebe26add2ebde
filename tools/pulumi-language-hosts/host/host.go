// Package host is what this project's stand-ins for Pulumi's Go and Python language hosts share: serving the
// LanguageRuntime service as the engine starts a language plugin, and running a program with the engine's settings.
// The official hosts live in Go modules the Go module proxy does not serve (../../../README.md, "Which route"); like
// ../pulumi-language-nodejs, these re-implement what running a program needs on github.com/pulumi/pulumi/sdk/v3 alone:
// Handshake, GetPluginInfo, GetRequiredPackages (none: the engine loads a provider when the program first uses it),
// Run, InstallDependencies, Cancel. Every other RPC answers codes.Unimplemented.
package host

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
	"time"

	"google.golang.org/grpc"
	"google.golang.org/protobuf/types/known/emptypb"

	"github.com/pulumi/pulumi/sdk/v3/go/common/resource/config"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/cmdutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/contract"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/logging"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	"github.com/pulumi/pulumi/sdk/v3/go/common/version"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
)

// ExitedAfterReportingError is the exit code a program's runner uses after it has reported its error through the
// engine (the Python SDK's and the Node.js SDK's convention): the engine must not print a second, generic one.
const ExitedAfterReportingError = 32

// Language is what differs between the languages: how a program is prepared and run.
type Language interface {
	// Command is the program's process: its executable and arguments, from the program's directory. Settings
	// reach it in the environment Env describes. cleanup removes what preparing it made, once it has exited.
	Command(ctx context.Context, req *pulumirpc.RunRequest, engineAddress string) (cmd *exec.Cmd, cleanup func(), err error)
	// Install installs the program's dependencies (`pulumi install`), writing progress to stdout and stderr.
	Install(ctx context.Context, info *pulumirpc.ProgramInfo, stdout, stderr io.Writer) error
}

// Main serves the LanguageRuntime of `language` as the engine starts a language plugin:
// `pulumi-language-<name> [-tracing url] [glog flags] <engine address>`, printing the port on stdout.
func Main(name string, language Language) {
	var tracing string
	flag.StringVar(&tracing, "tracing", "", "Emit tracing to a Zipkin-compatible tracing endpoint")
	showVersion := flag.Bool("version", false, "Print the current plugin version and exit")
	flag.Parse()
	if *showVersion {
		fmt.Println(version.Version)
		os.Exit(0)
	}
	logging.InitLogging(false, 0, false)
	cmdutil.InitTracing(name, name, tracing)
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
	// Exit on our own when the engine goes away, so no orphaned host is left behind.
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, cancel); err != nil {
			cmdutil.Exit(fmt.Errorf("could not start health check host RPC server: %w", err))
		}
	}
	runCtx, runCancel := context.WithCancel(context.Background())
	server := &languageHost{language: language, engineAddress: engineAddress, cancelCtx: runCtx, cancel: runCancel}
	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, server)
			return nil
		},
		Options: rpcutil.TracingServerInterceptorOptions(nil),
	})
	if err != nil {
		cmdutil.Exit(fmt.Errorf("could not start language host RPC server: %w", err))
	}
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		cmdutil.Exit(fmt.Errorf("language host RPC stopped serving: %w", err))
	}
}

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	language      Language
	engineAddress string
	cancelCtx     context.Context // cancelled by the Cancel RPC
	cancel        context.CancelFunc
}

func (host *languageHost) Handshake(
	ctx context.Context, req *pulumirpc.LanguageHandshakeRequest,
) (*pulumirpc.LanguageHandshakeResponse, error) {
	host.engineAddress = req.EngineAddress
	hcCtx, cancel := signal.NotifyContext(context.Background(), os.Interrupt)
	if err := rpcutil.Healthcheck(hcCtx, host.engineAddress, 5*time.Minute, cancel); err != nil {
		cmdutil.Exit(fmt.Errorf("could not start health check host RPC server: %w", err))
	}
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (host *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version.Version}, nil
}

// GetRequiredPackages answers none: the engine then starts a provider plugin when the program first registers one of
// its resources or invokes one of its functions, by the name and version the SDK sends (pulumi-plugin.json).
func (host *languageHost) GetRequiredPackages(
	context.Context, *pulumirpc.GetRequiredPackagesRequest,
) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (host *languageHost) GetRequiredPlugins(
	context.Context, *pulumirpc.GetRequiredPluginsRequest,
) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (host *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	host.cancel()
	return &emptypb.Empty{}, nil
}

func (host *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	if host.engineAddress == "" {
		return nil, errors.New("when debugging or running explicitly, must call Handshake before Run")
	}
	cmdCtx, cmdCancel := context.WithCancel(host.cancelCtx)
	defer cmdCancel()
	context.AfterFunc(ctx, cmdCancel)
	cmd, cleanup, err := host.language.Command(cmdCtx, req, host.engineAddress)
	if cleanup != nil {
		defer cleanup()
	}
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	env, err := Env(req, host.engineAddress)
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	cmd.Env = append(append(os.Environ(), cmd.Env...), env...)
	cmd.Dir = req.GetInfo().GetProgramDirectory()
	cmd.Stdout = struct{ io.Writer }{os.Stdout}
	cmd.Stderr = struct{ io.Writer }{os.Stderr}
	cmd.Cancel = func() error {
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			return cmd.Process.Kill()
		}
		return nil
	}
	cmd.WaitDelay = 5 * time.Second
	logging.V(5).Infof("Language host launching process: %s %v", cmd.Path, cmd.Args)
	if err := cmd.Run(); err != nil {
		contract.IgnoreError(os.Stdout.Sync())
		contract.IgnoreError(os.Stderr.Sync())
		var exiterr *exec.ExitError
		if !errors.As(err, &exiterr) {
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("could not run the program: %v", err)}, nil
		}
		switch code := exiterr.ExitCode(); code {
		case ExitedAfterReportingError:
			return &pulumirpc.RunResponse{Bail: true}, nil
		default:
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", code)}, nil
		}
	}
	return &pulumirpc.RunResponse{}, nil
}

func (host *languageHost) InstallDependencies(
	req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer,
) error {
	closer, stdout, stderr, err := rpcutil.MakeInstallDependenciesStreams(server, req.IsTerminal)
	if err != nil {
		return err
	}
	defer closer.Close()
	fmt.Fprintf(stdout, "Installing dependencies...\n\n")
	if err := host.language.Install(server.Context(), req.GetInfo(), stdout, stderr); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "Finished installing dependencies\n\n")
	return closer.Close()
}

// Env is the program's settings as the Go and Python SDKs read them: the engine's and monitor's addresses, the
// project, stack, organization, dry-run flag, parallelism and the stack's config (PULUMI_CONFIG, with its secret
// keys in PULUMI_CONFIG_SECRET_KEYS).
func Env(req *pulumirpc.RunRequest, engineAddress string) ([]string, error) {
	cfg := make(map[string]string, len(req.GetConfig()))
	for k, v := range req.GetConfig() {
		key, err := config.ParseKey(k)
		if err != nil {
			return nil, fmt.Errorf("failed to serialize configuration: %w", err)
		}
		cfg[key.Namespace()+":"+key.Name()] = v
	}
	cfgJSON, err := json.Marshal(cfg)
	if err != nil {
		return nil, err
	}
	secretKeys := req.GetConfigSecretKeys()
	if secretKeys == nil {
		secretKeys = []string{}
	}
	secretJSON, err := json.Marshal(secretKeys)
	if err != nil {
		return nil, err
	}
	return []string{
		"PULUMI_MONITOR=" + req.GetMonitorAddress(),
		"PULUMI_ENGINE=" + engineAddress,
		"PULUMI_PROJECT=" + req.GetProject(),
		"PULUMI_STACK=" + req.GetStack(),
		"PULUMI_ORGANIZATION=" + req.GetOrganization(),
		"PULUMI_ROOT_DIRECTORY=" + req.GetInfo().GetRootDirectory(),
		"PULUMI_DRY_RUN=" + strconv.FormatBool(req.GetDryRun()),
		"PULUMI_PARALLEL=" + strconv.Itoa(int(req.GetParallel())),
		"PULUMI_CONFIG=" + string(cfgJSON),
		"PULUMI_CONFIG_SECRET_KEYS=" + string(secretJSON),
	}, nil
}
