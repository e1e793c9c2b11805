//go:build !unix

package main

import "os"

var terminating = []os.Signal{os.Interrupt}

func raise(os.Signal) { os.Exit(1) }

const noCTTY = 0

// syncDir does nothing: directories cannot be synced here.
func syncDir(string) error { return nil }
