//go:build !purego

package ocb

import (
	"math"
	"unsafe"

	"github.com/faelabs/fae/batch"
	"github.com/faelabs/fae/internal/batchutil"
	"github.com/faelabs/fae/internal/cpu"
)

// The lane kernels (ocb_amd64.s, see _asm/batch.go) seal or open 16 messages
// of msgs side by side, each in its own 128-bit lane: msgs[idx[k]] for lanes
// k < n, lanes past n idle (repeating lane 0's whole blocks, their tags
// unused); each text, In less sub bytes, is shorter than 4096 bytes. They
// read the messages' slices themselves (msgs stays the caller's, which keeps
// them alive; assembly is no preemption point), leave each tag, less
// HASH(A), in out.tag, and finish the tags of the lanes marked in out.done,
// those of mark without associated data: the seal kernel stores them, the
// open kernel sets their messages' OK and the lanes whose tags differ in
// out.fail.

//go:noescape
func ocbSealLanesVAES512(nr int, rk *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, msgs *batch.Message, idx *[16]int, n, sub int, mark uint32, out *laneOut)

//go:noescape
func ocbOpenLanesVAES512(nr int, rk, ek *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, msgs *batch.Message, idx *[16]int, n, sub int, mark uint32, out *laneOut)

// The run kernels are the lane kernels for runs of groups of 16 messages in
// a row from msgs on (batchutil.LaneGroup.Runs): they take each group's
// pointers from its messages, without a table, and the next group in the
// same call, but stop after a group that is theirs to finish (out.done not
// all set, out.fail not empty), and return the groups they ran. They read
// each group's nonces while the group before it ends (after a stop,
// unused), never past the run's runs groups. The open run kernel sets the
// OK of every message it ran, false where not in out.done, for Finish to
// set.

//go:noescape
func ocbSealRunVAES512(nr int, rk *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, msgs *batch.Message, runs, sub int, mark uint32, out *laneOut) int

//go:noescape
func ocbOpenRunVAES512(nr int, rk, ek *[240]byte, l *[32][16]byte, ends *[2][16]byte, bits *[16]byte, nonceLen int, msgs *batch.Message, runs, sub int, mark uint32, out *laneOut) int

// useVAES512Lanes enables the lane kernels (which take VBMI2's funnel
// shifts to the offsets, and whose open kernels take BMI2's PDEP and PEXT
// to the lanes' masks).
var useVAES512Lanes = cpu.X86HasVAES512 && cpu.X86HasAVX512VBMI2 && cpu.X86HasBMI2

// laneMaxLen bounds the texts that go in lanes: longer ones keep the AES
// pipeline as full on their own (the message kernels' 32-block groups), at
// less cost per block than 16 lanes with their own pointers and masks
// (measured: 64 messages of 1500 bytes seal faster one by one).
const laneMaxLen = 1024

// laneOut is what a lane kernel leaves its caller, one for all the groups
// of a batch; _asm/batch.go has its layout, which TestLaneLayout pins. (The
// kernels keep the rest, their lanes' table among it, in their own frames.)
type laneOut struct {
	tag  [16][16]byte
	fail uint32 // opening: the lanes of done whose tags differ
	done uint32 // the lanes whose tags the kernel finished
}

// batchLanes checks msgs, seals or opens them in lane groups (setting OK
// when opening), and reports whether it did: where the lane kernels run,
// for AES.
func (a *AEAD) batchLanes(d direction, msgs []batch.Message) bool {
	if !useVAES512Lanes || a.aes == nil {
		return false
	}
	spec := a.batchSpec()
	var sp batchutil.Spans
	if d == encrypt {
		sp = spec.CheckSeal(msgs)
	} else {
		sp = spec.CheckOpen(msgs)
	}
	if p := batchutil.NewPlan(msgs, sp, d == decrypt, a.tagSize, laneMaxLen, math.MaxInt); p.Alone() {
		for i := range msgs {
			a.one(d, &msgs[i])
		}
	} else {
		a.lanes(d, msgs, &p)
	}
	return true
}

// lanes seals or opens msgs as p plans, with lane groups (batchLanes's).
//
//go:noinline
func (a *AEAD) lanes(d direction, msgs []batch.Message, p *batchutil.Plan) {
	var out laneOut
	batchutil.RunLanes(msgs, p, math.MaxInt, func(g batchutil.LaneGroup) { a.runLanes(d, msgs, &g, &out) },
		func(i int) { a.one(d, &msgs[i]) })
}

// runLanes seals or opens g's messages of msgs (out the kernel's).
func (a *AEAD) runLanes(d direction, msgs []batch.Message, g *batchutil.LaneGroup, out *laneOut) {
	nr, ek := a.aes.Rounds(), a.aes.EncKeys()
	g.Run(msgs, &batchutil.LaneKernels{
		Open: d == decrypt, TagSize: a.tagSize,
		Lanes: func(mark uint32) {
			if d == encrypt {
				ocbSealLanesVAES512(nr, ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, unsafe.SliceData(msgs), &g.Idx, g.N, 0, mark, out)
			} else {
				ocbOpenLanesVAES512(nr, a.aes.DecKeys(), ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, unsafe.SliceData(msgs), &g.Idx, g.N, a.tagSize, mark, out)
			}
		},
		Run: func(i, runs int, mark uint32) int {
			if d == encrypt {
				return ocbSealRunVAES512(nr, ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, &msgs[i], runs, 0, mark, out)
			}
			return ocbOpenRunVAES512(nr, a.aes.DecKeys(), ek, &a.l, &a.ends, &a.nonceBits, a.nonceSize, &msgs[i], runs, a.tagSize, mark, out)
		},
		Tags: &out.tag, Done: &out.done, Fail: &out.fail, Hash: a.hash,
	})
}
