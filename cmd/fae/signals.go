package main

import (
	"os"
	"os/signal"
	"sync"
)

// An undoSet holds what fae undoes when a signal ends it: temporary files
// to remove, a terminal to restore.
type undoSet struct {
	sync.Mutex
	fns  map[int]func()
	next int
}

var (
	interrupts undoSet
	watchOnce  sync.Once
)

// add registers undo to run, should a signal in terminating end fae,
// before the signal takes its usual effect, and returns the function that
// unregisters it. The caller holds the lock, so that registering can be
// one step with what makes undo needed.
func (u *undoSet) add(undo func()) (cancel func()) {
	watch()
	if u.fns == nil {
		u.fns = map[int]func(){}
	}
	id := u.next
	u.next++
	u.fns[id] = undo
	return func() {
		u.Lock()
		delete(u.fns, id)
		u.Unlock()
	}
}

// onInterrupt is add under the lock.
func onInterrupt(undo func()) (cancel func()) {
	interrupts.Lock()
	defer interrupts.Unlock()
	return interrupts.add(undo)
}

// watch starts watching for the terminating signals, if not yet done:
// before anything is made that a signal should undo.
func watch() { watchOnce.Do(watchSignals) }

// watchSignals catches the terminating signals, except those fae was
// started with ignored (as by nohup), which stay ignored. The first that
// comes runs the undo functions and is raised again.
func watchSignals() {
	var sigs []os.Signal
	for _, s := range terminating {
		if !signal.Ignored(s) {
			sigs = append(sigs, s)
		}
	}
	c := make(chan os.Signal, 1)
	signal.Notify(c, sigs...)
	go func() {
		sig := <-c
		interrupts.Lock() // for good: fae ends
		for _, undo := range interrupts.fns {
			undo()
		}
		raise(sig)
	}()
}
