package stream

import (
	"errors"
	"io"
)

// NewWriter writes the header h describes to w and returns a WriteCloser
// that encrypts what is written to it into w. Close seals and writes the
// last chunk; without it the file is truncated and will not decrypt. Close
// does not close w.
//
// key is a passphrase if h.Passphrase is set, and otherwise a secret of at
// least MinKeySize random bytes. Writes go to w in whole chunks, from the
// goroutine that calls Write or Close, some chunks behind the input while
// the others are sealed.
func NewWriter(w io.Writer, h Header, key []byte) (io.WriteCloser, error) {
	hd, err := newHeader(h)
	if err != nil {
		return nil, err
	}
	mac, s, err := hd.keys(key)
	if err != nil {
		return nil, err
	}
	if _, err := w.Write(append(hd.raw, mac...)); err != nil {
		return nil, err
	}
	wr := &writer{w: w}
	wr.p = newPipeline(s, s.chunk, s.chunk+s.tag, wr.seal)
	wr.cur = wr.p.get()
	return wr, nil
}

var errClosed = errors.New("stream: write after Close")

type writer struct {
	w   io.Writer
	p   *pipeline
	cur *batch // being filled
	err error  // sticky: a write to w failed, or Close was called
}

// seal seals the chunks of b's plaintext into b.out.
func (wr *writer) seal(b *batch) {
	s := wr.p.suite
	pt, out, i := b.in[:b.n], b.out[:0], b.first
	for {
		k := min(len(pt), s.chunk)
		last := b.final && k == len(pt)
		out = s.aead.Seal(out, s.nonce(b.nonce, i, last), pt[:k], nil)
		pt, i = pt[k:], i+1
		if last || len(pt) == 0 {
			break
		}
	}
	b.res = out
}

func (wr *writer) Write(p []byte) (n int, err error) {
	if wr.err != nil {
		return 0, wr.err
	}
	for len(p) > 0 {
		k := copy(wr.cur.in[wr.cur.n:], p)
		wr.cur.n += k
		n += k
		p = p[k:]
		if err := wr.flushFull(); err != nil {
			return n, err
		}
	}
	return n, nil
}

// ReadFrom encrypts r up to its end, reading straight into the batches.
func (wr *writer) ReadFrom(r io.Reader) (n int64, err error) {
	if wr.err != nil {
		return 0, wr.err
	}
	for {
		k, rerr := r.Read(wr.cur.in[wr.cur.n:])
		wr.cur.n += k
		n += int64(k)
		if err := wr.flushFull(); err != nil {
			return n, err
		}
		switch {
		case rerr == io.EOF:
			return n, nil
		case rerr != nil:
			return n, rerr
		}
	}
}

// flushFull starts the current batch if it is full and one byte more has
// come, so that its chunks are not the last, and carries that byte over
// into the next batch.
func (wr *writer) flushFull() error {
	b := wr.cur
	if b.n < len(b.in) {
		return nil
	}
	b.n--
	carry := b.in[b.n]
	wr.p.start(b)
	next, err := wr.free()
	if err != nil {
		return err
	}
	next.in[0] = carry
	next.n = 1
	wr.cur = next
	return nil
}

// free writes out the sealed batches and returns a batch to fill, waiting
// for the oldest one if all are in use.
func (wr *writer) free() (*batch, error) {
	for {
		b := wr.p.head(false)
		if b == nil {
			break
		}
		if err := wr.output(b); err != nil {
			return nil, err
		}
	}
	if b := wr.p.get(); b != nil {
		return b, nil
	}
	if err := wr.output(wr.p.head(true)); err != nil {
		return nil, err
	}
	return wr.p.get(), nil
}

func (wr *writer) output(b *batch) error {
	_, err := wr.w.Write(b.res)
	wr.p.put(b)
	if err != nil {
		wr.err = err
	}
	return err
}

// Close seals the last chunk and writes out every chunk.
func (wr *writer) Close() error {
	if wr.err != nil {
		if wr.err == errClosed {
			return nil
		}
		return wr.err
	}
	wr.cur.final = true
	wr.p.start(wr.cur)
	wr.cur = nil
	for b := wr.p.head(true); b != nil; b = wr.p.head(true) {
		if err := wr.output(b); err != nil {
			return err
		}
	}
	wr.err = errClosed
	return nil
}
