package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/credentials/insecure"
	healthpb "google.golang.org/grpc/health/grpc_health_v1"
	"google.golang.org/grpc/status"
)

// engineCheckInterval is how often the engine is asked whether it is alive. The official host asks every 5 minutes
// (rpcutil.Healthcheck), which leaves a host and its program orphaned that long after a `kill -9` of the CLI.
const engineCheckInterval = time.Second

var watchOnce sync.Once

// watchEngine exits the host, once the engine at address is gone, with one line on stderr saying why: the program it
// runs is interrupted first (its calls to the engine's monitor fail anyway). Gone means the engine's gRPC health
// check fails with UNAVAILABLE and a TCP connect to the address is refused: the kernel closes a dead process's
// sockets on Linux and macOS alike, while it keeps accepting connections for a process that is stopped or slow, whose
// check then just waits (no deadline), so a paused engine is never taken for a dead one.
func (host *nodeLanguageHost) watchEngine(address string) error {
	var err error
	watchOnce.Do(func() {
		var conn *grpc.ClientConn
		conn, err = grpc.NewClient(address, grpc.WithTransportCredentials(insecure.NewCredentials()))
		if err != nil {
			return
		}
		health := healthpb.NewHealthClient(conn)
		go func() {
			for {
				time.Sleep(engineCheckInterval)
				_, checkErr := health.Check(context.Background(), &healthpb.HealthCheckRequest{})
				if status.Code(checkErr) != codes.Unavailable || !refusesConnections(address) {
					continue
				}
				host.cancelFunc()
				fmt.Fprintf(os.Stderr, "pulumi-language-nodejs (pid %d): the Pulumi engine at %s is gone "+
					"(its health check failed and the address refuses connections); exiting\n", os.Getpid(), address)
				// Give the interrupted program a moment to stop before its host is gone.
				time.Sleep(500 * time.Millisecond)
				os.Exit(1)
			}
		}()
	})
	return err
}

// refusesConnections tells whether nothing listens at address any more; a timeout proves nothing.
func refusesConnections(address string) bool {
	conn, err := net.DialTimeout("tcp", address, 5*time.Second)
	if err == nil {
		conn.Close()
		return false
	}
	return errors.Is(err, syscall.ECONNREFUSED)
}
