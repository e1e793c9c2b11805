//go:build purego || !amd64

package bench

func addChain(n uint64) uint64 { return addChainGeneric(n) }

const chainKernel = "generic Go"
