package arm64gen

import "testing"

// TestShapes pins the text of the shared shapes; the generators' output,
// which CI regenerates and compares, covers the rest.
func TestShapes(t *testing.T) {
	f := &File{}
	f.Func("k", "n int", 8)
	f.Load("R1", 0, 6)
	f.ByRounds("R0", "r", func() { f.Op("A") }, func() { f.Op("B") }, func() { f.Rounds(true, 2, 9, 8, 9) })
	f.BlockLoop("R2", func(k int) { f.Op("BODY%d", k) })
	f.Data("c", []byte{1, 2, 3, 4, 5, 6, 7, 8})
	f.FuncFrame("m", "", 24, 0)
	want := `
// func k(n int)
TEXT ·k(SB), NOSPLIT, $0-8
	VLD1.P 64(R1), [V0.B16, V1.B16, V2.B16, V3.B16]
	VLD1.P 32(R1), [V4.B16, V5.B16]
	CMP $12, R0
	BLT r128_2
	BEQ r192_1
	A

r192_1:
	B

r128_2:
	AESD V8.B16, V0.B16
	AESIMC V0.B16, V0.B16
	AESD V8.B16, V1.B16
	AESIMC V1.B16, V1.B16
	AESD V9.B16, V0.B16
	AESD V9.B16, V1.B16

loop3:
	CMP $8, R2
	BLT tail4
	BODY8
	SUB $8, R2
	B loop3

tail4:
	TBZ $2, R2, skip5
	BODY4

skip5:
	TBZ $1, R2, skip6
	BODY2

skip6:
	TBZ $0, R2, skip7
	BODY1

skip7:

DATA c<>+0(SB)/8, $0x0807060504030201
GLOBL c<>(SB), RODATA|NOPTR, $8

// func m()
TEXT ·m(SB), NOSPLIT, $24-0
`
	if got := f.buf.String(); got != want {
		t.Errorf("got:\n%s\nwant:\n%s", got, want)
	}
	if got, want := f.RegsS4(30, 2), "[V30.S4, V31.S4]"; got != want {
		t.Errorf("f.RegsS4(30, 2) = %s, want %s", got, want)
	}
}
