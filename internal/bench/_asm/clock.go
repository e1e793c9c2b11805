// Command clock generates clock_amd64.s, the dependent-add chain that package
// bench times to find the core clock.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
)

//go:generate go run . -out ../clock_amd64.s -pkg bench

// unroll is the number of dependent adds in one pass of the loop; the
// package's addsPerIteration must equal it.
const unroll = 64

func main() {
	ConstraintExpr("!purego")
	TEXT("addChain", NOSPLIT, "func(n uint64) uint64")
	Doc(
		"addChain runs n iterations of 64 dependent ADDQ on one register, a",
		"chain of 64n single-cycle adds, and returns the sum so that nothing",
		"is dead. The adds take a register operand, never an immediate, which",
		"some cores fold at rename. The loop counter is a separate chain that",
		"runs beside the adds and adds no cycles.",
	)
	n := Load(Param("n"), GP64())
	x := GP64()
	XORQ(x, x)
	TESTQ(n, n)
	JZ(LabelRef("done"))
	Label("loop")
	for range unroll {
		ADDQ(n, x)
	}
	DECQ(n)
	JNZ(LabelRef("loop"))
	Label("done")
	Store(x, ReturnIndex(0))
	RET()
	Generate()
}
