package bench

import (
	"cmp"
	"fmt"
	"slices"
)

// A Panel is one small multiple of the plot of a report: the Seal figures
// of a few implementations that a reader compares with one another.
type Panel struct {
	Title string
	Lines []Line
}

// A Line is the Seal figures of one implementation of one algorithm, by
// increasing message length: of single messages, or with Batch set of
// SealBatch on that many messages per call.
type Line struct {
	Alg, Impl string
	Batch     int
	Bytes     []int
	CPB       []float64
}

// MaxPanelLines bounds the lines of a panel: beyond about six, colours and
// dash patterns stop telling lines apart at a glance.
const MaxPanelLines = 6

// A pick selects the lines of one algorithm: every implementation measured,
// in Impls, or with first only the first of them (fae's own code where
// fae has it, else the registry's), for panels that compare algorithms.
type pick struct {
	alg   string
	first bool
}

func every(algs ...string) []pick {
	ps := make([]pick, len(algs))
	for i, a := range algs {
		ps[i] = pick{alg: a}
	}
	return ps
}

// panelSpecs are the panels, in reading order: first Krovetz and Rogaway's
// four modes side by side, as in their FSE 2011 figures, then one panel
// per mode or family with fae against its peers. The AES-192 rows are left
// to the tables: they fall between AES-128 and AES-256 and would crowd
// the OCB, GCM and CTR panels.
var panelSpecs = []struct {
	title string
	picks []pick
}{
	{"Krovetz and Rogaway's four modes, AES-128",
		[]pick{{"aes-128-ccm", true}, {"aes-128-gcm", true}, {"aes-128-ocb3", true}, {"aes-128-ctr", true}}},
	{"OCB3 and RAOCB, AES-128", every("aes-128-ocb3", "raocb-aes-128")},
	{"OCB3 and RAOCB, AES-256", every("aes-256-ocb3", "raocb-aes-256")},
	{"AEGIS", every("aegis-128l", "aegis-128x2", "aegis-128x4", "aegis-256", "aegis-256x2", "aegis-256x4")},
	{"ROCCA-S beside other 256-bit-key AEADs",
		[]pick{{"rocca-s", false}, {"aegis-256", true}, {"aes-256-gcm", true}, {"chacha20-poly1305", false}}},
	{"GCM, AES-128", every("aes-128-gcm")},
	{"GCM, AES-256, and XAES-256-GCM", every("aes-256-gcm", "xaes-256-gcm")},
	{"CCM", every("aes-128-ccm", "aes-256-ccm", "lea-128-ccm")},
	{"AES-CTR, the reference", every("aes-128-ctr", "aes-256-ctr")},
	{"LEA, beside AES-128-OCB3",
		[]pick{{"lea-128-ocb3", false}, {"lea-256-ocb3", false}, {"lea-128-gcm", false}, {"lea-256-gcm", false},
			{"lea-128-ccm", false}, {"aes-128-ocb3", true}}},
}

// Panels returns the panels of r's Seal figures that have something to
// show, each with its lines in the order of its picks.
func (r *Report) Panels() []Panel {
	rs := slices.Clone(r.Results)
	sortResults(rs) // by algorithm, Impls and length
	lines := map[string][]Line{}
	batched := map[string]*Line{} // fae's batched seals, by algorithm
	var batchAlgs []string
	for _, res := range rs {
		if res.Op != "seal" {
			continue
		}
		if res.Batch > 0 {
			l := batched[res.Alg]
			if l == nil {
				l = &Line{Alg: res.Alg, Impl: res.Impl, Batch: res.Batch}
				batched[res.Alg] = l
				batchAlgs = append(batchAlgs, res.Alg)
			}
			l.Bytes = append(l.Bytes, res.Bytes)
			l.CPB = append(l.CPB, res.CPB)
			continue
		}
		ls := lines[res.Alg]
		if n := len(ls); n == 0 || ls[n-1].Impl != res.Impl {
			ls = append(ls, Line{Alg: res.Alg, Impl: res.Impl})
		}
		l := &ls[len(ls)-1]
		l.Bytes = append(l.Bytes, res.Bytes)
		l.CPB = append(l.CPB, res.CPB)
		lines[res.Alg] = ls
	}
	var out []Panel
	for _, spec := range panelSpecs {
		p := Panel{Title: spec.title}
		for _, pk := range spec.picks {
			ls := lines[pk.alg]
			if pk.first && len(ls) > 1 {
				ls = ls[:1]
			}
			p.Lines = append(p.Lines, ls...)
		}
		if len(p.Lines) > 0 {
			out = append(out, p)
		}
	}
	if len(batchAlgs) == 0 {
		return out
	}
	// Last, batches beside single calls of the same code: the algorithms
	// of batchFirst that were run, then the others, while they fit.
	slices.SortStableFunc(batchAlgs, func(a, b string) int {
		return cmp.Compare(rank(batchFirst, a), rank(batchFirst, b))
	})
	p := Panel{Title: fmt.Sprintf("Batches of %d messages per call (dashed) beside single messages", batched[batchAlgs[0]].Batch)}
	for _, alg := range batchAlgs {
		if len(p.Lines)+2 > MaxPanelLines {
			break
		}
		if ls := lines[alg]; len(ls) > 0 && ls[0].Impl == batched[alg].Impl {
			p.Lines = append(p.Lines, ls[0])
		}
		p.Lines = append(p.Lines, *batched[alg])
	}
	return append(out, p)
}

// batchFirst are the algorithms the panel of batches shows first: the
// modes that most gain from batches, and their peers among AES-round
// AEADs.
var batchFirst = []string{"aes-128-ocb3", "aes-128-ccm", "aegis-128l"}

// rank is the index of s in order, or len(order) when absent.
func rank(order []string, s string) int {
	if i := slices.Index(order, s); i >= 0 {
		return i
	}
	return len(order)
}
