// Command cpuid generates cpuid_amd64.s, the CPUID instruction for package cpu.
package main

import (
	. "github.com/mmcloughlin/avo/build"
	. "github.com/mmcloughlin/avo/reg"
)

//go:generate go run . -out ../cpuid_amd64.s -pkg cpu

func main() {
	ConstraintExpr("!purego")
	TEXT("cpuid", NOSPLIT, "func(leaf, sub uint32) (eax, ebx, ecx, edx uint32)")
	Doc("cpuid executes CPUID with EAX=leaf and ECX=sub.")
	Load(Param("leaf"), EAX)
	Load(Param("sub"), ECX)
	CPUID()
	Store(EAX, Return("eax"))
	Store(EBX, Return("ebx"))
	Store(ECX, Return("ecx"))
	Store(EDX, Return("edx"))
	RET()
	Generate()
}
