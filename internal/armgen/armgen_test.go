package armgen

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestKnown checks the encoder against encodings llvm-mc-19 printed for
// the same mnemonics (llvm-mc-19 -triple=armv7a -mattr=+neon
// -show-encoding), registers chosen to set every register field's top bit.
func TestKnown(t *testing.T) {
	ld, st := Ld4(8, 12), St4(12, 2)
	for _, c := range []struct {
		inst Inst
		want uint32
	}{
		{Veor(1, 2, 3), 0xf3042156},
		{Veor(15, 14, 9), 0xf34ce1f2},
		{Vadd(13, 8, 15), 0xf260a8ee},
		{Vsub(1, 9, 14), 0xf32228ec},
		{Vshr(12, 3, 9), 0xf3f78056},
		{Vshr(2, 14, 23), 0xf3a9407c},
		{Vsli(12, 3, 23), 0xf3f78556},
		{Vsli(9, 14, 3), 0xf3e3257c},
		{VdupR(15, 7), 0xeeae7b90},
		{VdupR(9, 12), 0xeea2cb90},
		{VmovLane(7, 1, 12), 0xee27cb10},
		{VmovLane(22, 0, 3), 0xee063b90},
		{Ld4(0, 3)[0], 0xf423018d},
		{ld[1], 0xf46c118d},
		{st[1], 0xf442918d},
	} {
		if c.inst.Enc != c.want {
			t.Errorf("%s: %#08x, want %#08x", c.inst.Asm, c.inst.Enc, c.want)
		}
	}
}

// word matches a generated NEON instruction.
var word = regexp.MustCompile(`^\s*WORD \$0x([0-9a-f]{8}) // (.*)$`)

// TestGenerated assembles every mnemonic in the generated 32-bit ARM
// assembly of the module with llvm-mc and compares the encodings with the
// WORDs beside them.
func TestGenerated(t *testing.T) {
	mc, err := exec.LookPath("llvm-mc-19")
	if err != nil {
		if mc, err = exec.LookPath("llvm-mc"); err != nil {
			t.Skip("no llvm-mc")
		}
	}
	files, _ := filepath.Glob("../../*/*_arm.s")
	more, _ := filepath.Glob("../../internal/*/*_arm.s")
	files = append(files, more...)
	var asm []string
	var want []uint32
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		s := bufio.NewScanner(bytes.NewReader(b))
		for s.Scan() {
			if m := word.FindStringSubmatch(s.Text()); m != nil {
				v, _ := strconv.ParseUint(m[1], 16, 32)
				asm = append(asm, m[2])
				want = append(want, uint32(v))
			}
		}
	}
	if len(asm) == 0 {
		t.Fatal("no NEON instructions found")
	}
	cmd := exec.Command(mc, "-triple=armv7a", "-mattr=+neon", "-show-encoding")
	cmd.Stdin = strings.NewReader(strings.Join(asm, "\n") + "\n")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", mc, err, out)
	}
	enc := regexp.MustCompile(`encoding: \[0x(..),0x(..),0x(..),0x(..)\]`)
	got := enc.FindAllStringSubmatch(string(out), -1)
	if len(got) != len(asm) {
		t.Fatalf("llvm-mc encoded %d of %d instructions", len(got), len(asm))
	}
	for i, m := range got {
		v, _ := strconv.ParseUint(m[4]+m[3]+m[2]+m[1], 16, 32)
		if uint32(v) != want[i] {
			t.Errorf("%s: WORD %#08x, llvm-mc %s", asm[i], want[i], fmt.Sprintf("%#08x", v))
		}
	}
}
