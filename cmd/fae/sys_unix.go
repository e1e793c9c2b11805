//go:build unix

package main

import (
	"os"
	"os/signal"
	"syscall"
	"time"
)

// terminating are the signals that end a Go program unless it handles
// them: SIGHUP, SIGINT and SIGTERM kill it, the others make the runtime
// print its goroutines and exit with status 2. SIGILL, SIGTRAP, SIGBUS,
// SIGFPE and SIGSEGV reach a handler only when sent by kill. The runtime
// ignores the others (SIGUSR1, SIGALRM, SIGXFSZ...), but for SIGPIPE from a
// write to a closed pipe on standard output or error, which it dies of:
// while fae has a temporary file it writes there only the progress bar,
// and only to a terminal. (SIGSTKFLT and SIGEMT, which exist only on some
// systems and which no one sends, are left to the runtime.)
var terminating = []os.Signal{syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGQUIT, syscall.SIGABRT,
	syscall.SIGILL, syscall.SIGTRAP, syscall.SIGBUS, syscall.SIGFPE, syscall.SIGSEGV, syscall.SIGSYS}

// raise gives sig its usual effect: the runtime's own handling, restored,
// of the signal sent again.
func raise(sig os.Signal) {
	signal.Reset(sig)
	syscall.Kill(syscall.Getpid(), sig.(syscall.Signal))
	time.Sleep(time.Second) // for the signal to arrive; should it not, exit as a shell reports it
	os.Exit(128 + int(sig.(syscall.Signal)))
}

// noCTTY keeps a terminal named as the output from becoming fae's
// controlling terminal.
const noCTTY = syscall.O_NOCTTY

// syncDir makes the entries of the directory dir durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = syncFile(d)
	if cerr := d.Close(); err == nil {
		err = cerr
	}
	return err
}
