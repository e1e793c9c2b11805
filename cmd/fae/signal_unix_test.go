//go:build unix

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
)

var unixCmds = map[string]func(ts *testscript.TestScript, neg bool, args []string){
	"killed":   func(ts *testscript.TestScript, neg bool, args []string) { signalCmd(ts, neg, args, false) },
	"survives": func(ts *testscript.TestScript, neg bool, args []string) { signalCmd(ts, neg, args, true) },
}

var signalNames = map[string]syscall.Signal{
	"HUP": syscall.SIGHUP, "INT": syscall.SIGINT, "QUIT": syscall.SIGQUIT, "TERM": syscall.SIGTERM,
	"ABRT": syscall.SIGABRT, "USR1": syscall.SIGUSR1, "PIPE": syscall.SIGPIPE, "SEGV": syscall.SIGSEGV,
}

// signalCmd runs a command, in the script's directory and environment,
// with standard input a pipe that gives it the file IN, unless IN is -,
// then nothing, and sends it a signal once a temporary file (.*.tmp) is in
// the directory. Unless survive, it waits for the command to
// end; with survive, it waits a moment and ends standard input. It prints
// how the command ended.
func signalCmd(ts *testscript.TestScript, neg bool, args []string, survive bool) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: killed|survives SIGNAL IN|- CMD [ARGS...]")
	}
	sig, ok := signalNames[args[0]]
	if !ok {
		ts.Fatalf("unknown signal %s", args[0])
	}
	var in []byte
	if args[1] != "-" {
		in = []byte(ts.ReadFile(args[1]))
	}
	args = args[2:]
	path := args[0]
	for _, dir := range filepath.SplitList(ts.Getenv("PATH")) {
		if _, err := os.Stat(filepath.Join(dir, args[0])); err == nil {
			path = filepath.Join(dir, args[0])
			break
		}
	}
	cmd := exec.Command(path, args[1:]...)
	cmd.Dir = ts.MkAbs(".")
	cmd.Env = []string{"PATH=" + ts.Getenv("PATH"), "HOME=" + ts.Getenv("HOME"), "TMPDIR=" + ts.Getenv("TMPDIR")}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdin, err := cmd.StdinPipe()
	ts.Check(err)
	ts.Check(cmd.Start())
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	go stdin.Write(in) // a pipe's buffer may hold less than in

	deadline := time.Now().Add(20 * time.Second)
	for !hasTempFile(cmd.Dir) {
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			<-done
			ts.Fatalf("no temporary file; stderr: %s", stderr.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
	ts.Check(cmd.Process.Signal(sig))
	if survive {
		time.Sleep(200 * time.Millisecond)
		stdin.Close()
	}
	select {
	case err = <-done:
	case <-time.After(20 * time.Second):
		cmd.Process.Kill()
		<-done
		ts.Fatalf("still running 20 s after the signal")
	}
	stdin.Close()
	state := "exit status 0"
	if err != nil {
		state = err.Error()
	}
	ts.Stdout().Write([]byte(state + "\n"))
	ts.Stderr().Write(stderr.Bytes())
}

func hasTempFile(dir string) bool {
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		// Not testscript's own .tmp directory.
		if name := e.Name(); e.Type().IsRegular() && strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp") {
			return true
		}
	}
	return false
}
