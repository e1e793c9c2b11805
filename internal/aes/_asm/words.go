package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/operand"
	. "github.com/mmcloughlin/avo/reg"
)

// encryptWords generates encryptWordsAESNI: one block in and out of general
// registers. A block that Go code has just assembled from 8-byte stores,
// loaded as 16 bytes, waits for those stores to reach the cache (store
// forwarding cannot merge two stores); passing the words as arguments
// keeps the short serial steps of the modes (nonce, tag) off that path.
func encryptWords() {
	TEXT("encryptWordsAESNI", NOSPLIT, "func(nr int, xk *[240]byte, w0, w1 uint64) (r0, r1 uint64)")
	Doc("encryptWordsAESNI encrypts the block whose bytes are the little-endian words w0, w1.")
	nr, xk, w := Load(Param("nr"), RCX), Load(Param("xk"), RAX), RDX
	Load(Param("w0"), w)
	MOVQ(w, X0)
	Load(Param("w1"), w)
	PINSRQ(U8(1), w, X0)
	// Legacy SSE memory operands must be aligned; round keys need not be.
	key := func(disp int) VecPhysical {
		MOVOU(Mem{Base: xk, Disp: disp}, X1)
		return X1
	}
	PXOR(key(0), X0)
	for r := 1; r < 10; r++ {
		AESENC(key(16*r), X0)
	}
	last := "words_last"
	CMPQ(nr, U8(10))
	JE(LabelRef(last))
	AESENC(key(160), X0)
	AESENC(key(176), X0)
	ADDQ(U8(32), xk)
	CMPQ(nr, U8(12))
	JE(LabelRef(last))
	AESENC(key(160), X0)
	AESENC(key(176), X0)
	ADDQ(U8(32), xk)
	Label(last)
	AESENCLAST(key(160), X0)
	MOVQ(X0, w)
	Store(w, Return("r0"))
	PEXTRQ(U8(1), X0, w)
	Store(w, Return("r1"))
	RET()
}
