//go:build !race && !asan && !msan

package aeadtest

// instrumented reports a build whose instrumentation changes allocation.
const instrumented = false
