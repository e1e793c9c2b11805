package gpu

import "sync"

// A device failure during a call (a launch or copy that errs, a context
// lost) does not reach the caller: the call completes on the CPU packages
// (ctr, ocb, raocb), whose output is the same, after undoing what the
// device had already written over its input. Fallbacks tells that it
// happened.
var fallbacks struct {
	mu   sync.Mutex
	n    uint64
	last error
}

// Fallbacks returns how many calls since the process started the GPU
// failed during, which then completed on the CPU with the same result, and
// the last such failure (nil when none). A GPU that has failed usually
// fails every later call too, each then at the CPU's speed: a caller that
// sees n grow can stop using the package.
func Fallbacks() (n uint64, last error) {
	fallbacks.mu.Lock()
	defer fallbacks.mu.Unlock()
	return fallbacks.n, fallbacks.last
}

func fellBack(err error) {
	fallbacks.mu.Lock()
	fallbacks.n++
	fallbacks.last = err
	fallbacks.mu.Unlock()
}
