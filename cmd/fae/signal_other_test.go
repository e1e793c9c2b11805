//go:build !unix

package main

import "github.com/rogpeppe/go-internal/testscript"

var unixCmds map[string]func(ts *testscript.TestScript, neg bool, args []string)
