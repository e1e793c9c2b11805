//go:build !purego

package cpu

const asm = true

// hasVAES is an x86 feature.
func hasVAES() bool { return false }
