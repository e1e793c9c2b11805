// Package stream implements fae's encrypted file format, described in
// docs/format.md: a header that names the algorithm, the chunk size and how
// the file key is derived, authenticated by an HMAC, followed by the
// plaintext cut into chunks, each sealed with the header's AEAD under a nonce
// made of a random prefix, the chunk's index and a flag marking the last
// chunk. Reordered, duplicated, dropped, truncated or appended chunks and any
// change to the header are detected.
//
// NewWriter encrypts, NewReader decrypts a stream, and NewReaderAt reads any
// range of an encrypted file, decrypting only the chunks it covers. Chunks
// are sealed and opened on all cores, a bounded number at a time, and no
// byte of a chunk is returned before the whole chunk is verified.
//
// The key is either a secret of at least MinKeySize random bytes, such as
// the contents of a key file made by "fae keygen", or, when the header says
// so, a passphrase, which Argon2id stretches with the cost recorded in the
// header, up to the reader's Limits.
package stream

import (
	"cmp"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
	"runtime"
	"slices"
	"strings"

	"golang.org/x/crypto/argon2"

	"github.com/faelabs/fae"
)

const (
	// DefaultAlgorithm is the AEAD a Header with no Algorithm uses.
	DefaultAlgorithm = "aegis-256x4"

	// DefaultChunkSize, MinChunkSize and MaxChunkSize bound the plaintext
	// bytes per chunk, a power of two.
	DefaultChunkSize = 1 << 20
	MinChunkSize     = 4 << 10
	MaxChunkSize     = 64 << 20

	// MinKeySize is the shortest key, in bytes, when the key is not a
	// passphrase.
	MinKeySize = 32
)

// Header holds the parameters a writer chooses for an encrypted file. The
// file records them; readers learn them from it.
type Header struct {
	// Algorithm names the AEAD, one of fae.Algorithms with a 32-byte key and
	// a nonce of at least 12 bytes. Empty means DefaultAlgorithm.
	Algorithm string

	// ChunkSize is the number of plaintext bytes per chunk, a power of two
	// from MinChunkSize to MaxChunkSize. Zero means DefaultChunkSize.
	ChunkSize int

	// Passphrase says that the key is a passphrase, to be stretched with
	// Argon2id; otherwise the key has MinKeySize or more random bytes.
	Passphrase bool

	// Argon2id is the cost of stretching a passphrase. The zero value means
	// the default: 4 passes over 256 MiB with 4 threads, about half a second
	// on two cores of a 2023 server CPU. Readers refuse costs over their
	// Limits, by default more than 1 GiB or 4 passes over 1 GiB.
	Argon2id Argon2idParams
}

// Argon2idParams are the cost parameters of Argon2id (RFC 9106).
type Argon2idParams struct {
	Time    uint32 // passes over the memory, 1 to 16
	Memory  uint32 // KiB, at least 8 per thread, at most 4 GiB
	Threads uint8  // lanes, at least 1
}

var defaultArgon2id = Argon2idParams{Time: 4, Memory: 256 << 10, Threads: 4}

// The format's bounds on the Argon2id cost; readers also apply Limits.
const (
	maxArgon2Time   = 16
	maxArgon2Memory = 4 << 20 // KiB
)

// DefaultArgon2idMemoryLimit is the most memory, in KiB, that Argon2id may
// use to read a file under the zero Limits: 1 GiB, four times what writers
// use by default. docs/format.md gives the reasons.
const DefaultArgon2idMemoryLimit = 1 << 20

// argon2idPassesLimit is how many passes over Limits' memory the time cost
// may ask for: Time × Memory is at most this many times the memory limit.
const argon2idPassesLimit = 4

// Limits bound the work a file's header may ask of its reader. A
// passphrase file's header is authenticated only with a key that Argon2id
// derives at the cost the header names, so a hostile header could
// otherwise demand gigabytes and minutes before its MAC fails. NewReader
// and NewReaderAt apply the zero Limits, the defaults.
type Limits struct {
	// Argon2idMemory is the most memory, in KiB, Argon2id may use; zero
	// means DefaultArgon2idMemoryLimit. The time cost may be at most four
	// passes over it: Time × Memory ≤ 4 × Argon2idMemory. The format
	// allows at most 16 passes over 4 GiB, which a limit of 16 GiB admits.
	Argon2idMemory uint32
}

// A CostError reports a header that asks for more Argon2id work than the
// reader's Limits allow. It is returned before any work is done.
type CostError struct {
	Cost  Argon2idParams // what the header asks for
	Limit uint32         // the memory limit applied, KiB
	Need  uint32         // the least memory limit, KiB, that allows Cost
}

func (e *CostError) Error() string {
	if e.Cost.Memory > e.Limit {
		return fmt.Sprintf("stream: the file asks Argon2id for %s of memory, over the limit of %s",
			kib(e.Cost.Memory), kib(e.Limit))
	}
	return fmt.Sprintf("stream: the file asks Argon2id for %d passes over %s, over the limit of %d passes over %s",
		e.Cost.Time, kib(e.Cost.Memory), argon2idPassesLimit, kib(e.Limit))
}

// kib formats n KiB in MiB where that is exact.
func kib(n uint32) string {
	if n%1024 == 0 {
		return fmt.Sprintf("%d MiB", n>>10)
	}
	return fmt.Sprintf("%d KiB", n)
}

// check returns a *CostError if h asks for more than l allows.
func (l Limits) check(h *header) error {
	if !h.Passphrase {
		return nil
	}
	limit := cmp.Or(l.Argon2idMemory, DefaultArgon2idMemoryLimit)
	p := h.Argon2id
	work := uint64(p.Time) * uint64(p.Memory)
	if p.Memory <= limit && work <= argon2idPassesLimit*uint64(limit) {
		return nil
	}
	need := max(p.Memory, uint32((work+argon2idPassesLimit-1)/argon2idPassesLimit))
	return &CostError{Cost: p, Limit: limit, Need: need}
}

func (p Argon2idParams) check() error {
	switch {
	case p.Time < 1 || p.Time > maxArgon2Time:
		return fmt.Errorf("stream: Argon2id time %d outside 1..%d", p.Time, maxArgon2Time)
	case p.Threads < 1:
		return errors.New("stream: Argon2id needs at least one thread")
	case p.Memory < 8*uint32(p.Threads) || p.Memory > maxArgon2Memory:
		return fmt.Errorf("stream: Argon2id memory %d KiB outside %d..%d", p.Memory, 8*uint32(p.Threads), maxArgon2Memory)
	}
	return nil
}

// A ChunkError reports a chunk that failed authentication: the file was
// damaged, truncated, extended or reordered. Chunks before it were verified.
type ChunkError struct {
	Index uint64 // the chunk's index, from 0
}

func (e *ChunkError) Error() string {
	return fmt.Sprintf("stream: chunk %d failed authentication (the file is damaged, truncated or reordered)", e.Index)
}

// ErrWrongKey and ErrWrongPassphrase report a header whose MAC does not
// verify under the key or passphrase: the wrong one, or a damaged header.
var (
	ErrWrongKey        = errors.New("stream: wrong key, or a damaged header (the file was encrypted with a key)")
	ErrWrongPassphrase = errors.New("stream: wrong passphrase, or a damaged header (the file was encrypted with a passphrase)")
)

// The header's layout; see docs/format.md.
const (
	magic         = "\x89FAE\r\n\x1a\n"
	version       = 1
	kdfKey        = 1 // HKDF-SHA256 of a key
	kdfPassphrase = 2 // Argon2id of a passphrase, then HKDF-SHA256
	saltSize      = 32
	minSaltSize   = 16
	maxSaltSize   = 64
	maxNameSize   = 64
	counterSize   = 9 // chunk index (8 bytes) and last-chunk flag (1)
	macSize       = sha256.Size
	// maxHeaderSize bounds a header: every field at its largest, a 32-byte nonce.
	maxHeaderSize = len(magic) + 1 + 1 + maxNameSize + 1 + 1 + 9 + 1 + maxSaltSize + 32 - counterSize + macSize
)

// messageLimits caps the chunk size of algorithms that bound the message
// length: CCM with a 12-byte nonce seals at most 2^24-1 bytes.
var messageLimits = map[string]int{"aes-256-ccm": 1<<24 - 1}

// A header is a Header as a file records it.
type header struct {
	Header
	nonceSize int
	salt      []byte
	prefix    []byte // nonce prefix, nonceSize - counterSize bytes
	raw       []byte // the encoded header, without its MAC
}

// algorithms is fae.Algorithms, read once.
var algorithms = fae.Algorithms()

// checkAlgorithm returns the nonce size of the named algorithm, or an error
// if the format does not allow it.
func checkAlgorithm(name string) (nonceSize int, err error) {
	i := slices.IndexFunc(algorithms, func(info fae.Info) bool { return info.Name == name })
	switch {
	case i < 0:
		_, err := fae.New(name, nil) // lists the known names
		return 0, fmt.Errorf("stream: %w", err)
	case algorithms[i].KeySize != 32 || algorithms[i].NonceSize < 12:
		return 0, fmt.Errorf("stream: %s cannot encrypt files: it needs a 32-byte key and a nonce of 12 bytes or more", name)
	}
	return algorithms[i].NonceSize, nil
}

func checkChunkSize(alg string, n int) error {
	if n < MinChunkSize || n > MaxChunkSize || n&(n-1) != 0 {
		return fmt.Errorf("stream: chunk size %d is not a power of two from %d to %d", n, MinChunkSize, MaxChunkSize)
	}
	if limit, ok := messageLimits[alg]; ok && n > limit {
		return fmt.Errorf("stream: chunk size %d is more than %s can seal at once", n, alg)
	}
	return nil
}

// newHeader fills in h's defaults, checks it and draws the salt and nonce
// prefix.
func newHeader(h Header) (*header, error) {
	if h.Algorithm == "" {
		h.Algorithm = DefaultAlgorithm
	}
	if h.ChunkSize == 0 {
		h.ChunkSize = DefaultChunkSize
	}
	if h.Passphrase && h.Argon2id == (Argon2idParams{}) {
		h.Argon2id = defaultArgon2id
	}
	nonceSize, err := checkAlgorithm(h.Algorithm)
	if err != nil {
		return nil, err
	}
	if err := checkChunkSize(h.Algorithm, h.ChunkSize); err != nil {
		return nil, err
	}
	switch {
	case h.Passphrase:
		if err := h.Argon2id.check(); err != nil {
			return nil, err
		}
	case h.Argon2id != (Argon2idParams{}):
		return nil, errors.New("stream: Argon2id parameters without Passphrase")
	}
	hd := &header{Header: h, nonceSize: nonceSize}
	hd.salt = make([]byte, saltSize)
	hd.prefix = make([]byte, nonceSize-counterSize)
	rand.Read(hd.salt)
	rand.Read(hd.prefix)
	hd.raw = hd.marshal()
	return hd, nil
}

func (h *header) marshal() []byte {
	b := []byte(magic)
	b = append(b, version, byte(len(h.Algorithm)))
	b = append(b, h.Algorithm...)
	b = append(b, byte(bits.TrailingZeros(uint(h.ChunkSize))))
	if h.Passphrase {
		b = append(b, kdfPassphrase)
		b = binary.BigEndian.AppendUint32(b, h.Argon2id.Time)
		b = binary.BigEndian.AppendUint32(b, h.Argon2id.Memory)
		b = append(b, h.Argon2id.Threads)
	} else {
		b = append(b, kdfKey)
	}
	b = append(b, byte(len(h.salt)))
	b = append(b, h.salt...)
	return append(b, h.prefix...)
}

var (
	errTruncatedHeader = errors.New("stream: truncated header")
	errNotFae          = errors.New("stream: not a fae encrypted file")
	errEmpty           = errors.New("stream: the input is empty, not a fae encrypted file")
)

// parseHeader reads a header and its MAC with next, which returns the
// following n bytes of the file, or those there are and an error.
func parseHeader(next func(n int) ([]byte, error)) (h *header, mac []byte, err error) {
	// A file shorter than the magic number is no fae file, unless it is
	// the start of one.
	b, err := next(len(magic))
	switch {
	case err == errTruncatedHeader && len(b) == 0:
		return nil, nil, errEmpty
	case !strings.HasPrefix(magic, string(b)):
		return nil, nil, errNotFae
	case err != nil:
		return nil, nil, err
	}
	raw := slices.Clone(b)
	read := func(n int) []byte {
		if err != nil {
			return nil
		}
		var b []byte
		if b, err = next(n); err != nil {
			return nil
		}
		raw = append(raw, b...)
		return b
	}
	fail := func(format string, args ...any) (*header, []byte, error) {
		return nil, nil, fmt.Errorf("stream: "+format, args...)
	}
	b = read(2)
	if err != nil {
		return nil, nil, err
	}
	if b[0] != version {
		return fail("unsupported format version %d", b[0])
	}
	if b[1] == 0 || b[1] > maxNameSize {
		return fail("algorithm name of %d bytes", b[1])
	}
	h = new(header)
	h.Algorithm = string(read(int(b[1])))
	b = read(2)
	if err != nil {
		return nil, nil, err
	}
	if h.nonceSize, err = checkAlgorithm(h.Algorithm); err != nil {
		return nil, nil, err
	}
	if b[0] >= 32 {
		return fail("chunk size 2^%d out of range", b[0])
	}
	h.ChunkSize = 1 << b[0]
	if err := checkChunkSize(h.Algorithm, h.ChunkSize); err != nil {
		return nil, nil, err
	}
	switch b[1] {
	case kdfKey:
	case kdfPassphrase:
		p := read(9)
		if err != nil {
			return nil, nil, err
		}
		h.Passphrase = true
		h.Argon2id = Argon2idParams{binary.BigEndian.Uint32(p), binary.BigEndian.Uint32(p[4:]), p[8]}
		if err := h.Argon2id.check(); err != nil {
			return nil, nil, err
		}
	default:
		return fail("unknown key derivation %d", b[1])
	}
	b = read(1)
	if err != nil {
		return nil, nil, err
	}
	if b[0] < minSaltSize || b[0] > maxSaltSize {
		return fail("salt of %d bytes outside %d..%d", b[0], minSaltSize, maxSaltSize)
	}
	h.salt = read(int(b[0]))
	h.prefix = read(h.nonceSize - counterSize)
	h.raw = raw
	mac = read(macSize)
	if err != nil {
		return nil, nil, err
	}
	return h, mac, nil
}

// A suite is what sealing and opening chunks need.
type suite struct {
	aead   cipher.AEAD
	prefix []byte
	chunk  int // plaintext bytes per chunk
	tag    int
}

// keys derives the header MAC and the AEAD from key, per docs/format.md.
func (h *header) keys(key []byte) (mac []byte, s *suite, err error) {
	secret := key
	if h.Passphrase {
		if len(key) == 0 {
			return nil, nil, errors.New("stream: empty passphrase")
		}
		p := h.Argon2id
		if err := canAllocate(uint64(p.Memory) << 10); err != nil {
			return nil, nil, fmt.Errorf("stream: cannot allocate the %s Argon2id needs: %w", kib(p.Memory), err)
		}
		secret = argon2.IDKey(key, h.salt, p.Time, p.Memory, p.Threads, 32)
		defer clear(secret)
	} else if len(key) < MinKeySize {
		return nil, nil, fmt.Errorf("stream: key is %d bytes, want at least %d", len(key), MinKeySize)
	}
	prk, err := hkdf.Extract(sha256.New, secret, h.salt)
	if err != nil {
		return nil, nil, err
	}
	defer clear(prk)
	macKey, err := hkdf.Expand(sha256.New, prk, "fae v1 header MAC", 32)
	if err != nil {
		return nil, nil, err
	}
	defer clear(macKey)
	payloadKey, err := hkdf.Expand(sha256.New, prk, "fae v1 payload key"+string(h.raw), 32)
	if err != nil {
		return nil, nil, err
	}
	defer clear(payloadKey)
	aead, err := fae.New(h.Algorithm, payloadKey)
	if err != nil {
		return nil, nil, fmt.Errorf("stream: %w", err)
	}
	m := hmac.New(sha256.New, macKey)
	m.Write(h.raw)
	return m.Sum(nil), &suite{aead, h.prefix, h.ChunkSize, aead.Overhead()}, nil
}

// verify derives the keys from key and checks the header's MAC.
func (h *header) verify(key, mac []byte) (*suite, error) {
	if !h.Passphrase && len(key) < MinKeySize {
		return nil, ErrWrongKey // likely a passphrase
	}
	want, s, err := h.keys(key)
	if err != nil {
		return nil, err
	}
	if !hmac.Equal(mac, want) {
		if h.Passphrase {
			return nil, ErrWrongPassphrase
		}
		return nil, ErrWrongKey
	}
	return s, nil
}

// nonce writes the nonce of chunk i into b, which holds the prefix.
func (s *suite) nonce(b []byte, i uint64, last bool) []byte {
	n := len(s.prefix)
	binary.BigEndian.PutUint64(b[n:], i)
	b[n+8] = 0
	if last {
		b[n+8] = 1
	}
	return b
}

func (s *suite) newNonce() []byte {
	b := make([]byte, len(s.prefix)+counterSize)
	copy(b, s.prefix)
	return b
}

// batchSize is the least plaintext a batch holds: a batch is read or written
// with one call and sealed or opened by one goroutine, so small chunks are
// grouped to keep both costs low.
const batchSize = 1 << 20

// maxMemory bounds the buffers of one reader or writer.
const maxMemory = 512 << 20

// A batch is a run of consecutive chunks, the unit of work of a pipeline.
type batch struct {
	chunks int    // how many chunks a full batch holds
	in     []byte // input, with one spare byte at the end
	n      int    // bytes of in in the batch
	out    []byte // room for the output
	res    []byte // the output, once done
	first  uint64 // the index of the first chunk
	final  bool   // whether the batch ends with the last chunk
	err    error
	nonce  []byte
	done   chan struct{} // receives once res and err are set
}

// A pipeline turns batches from in to out on goroutines, at most max batches
// in memory, and gives them back in order. Its goroutines live as long as
// one batch's work; none outlives its batch.
type pipeline struct {
	*suite
	in, out int // bytes per chunk of input and output
	per     int // chunks per batch
	work    func(*batch)
	max     int
	made    int
	free    []*batch
	queue   []*batch // started, in order
	next    uint64   // the first chunk of the next batch
}

func newPipeline(s *suite, in, out int, work func(*batch)) *pipeline {
	p := &pipeline{suite: s, in: in, out: out, per: max(1, batchSize/s.chunk), work: work}
	p.max = max(2, min(runtime.GOMAXPROCS(0)+2, maxMemory/(p.per*(in+out))))
	return p
}

// get returns a free batch, or nil if max are in use. Batches start with one
// chunk and grow with the stream, to per chunks, so that small files cost
// little memory.
func (p *pipeline) get() *batch {
	chunks := int(min(uint64(p.per), max(1, p.next)))
	var b *batch
	if n := len(p.free); n > 0 {
		b = p.free[n-1]
		p.free = p.free[:n-1]
	} else if p.made < p.max {
		p.made++
		b = &batch{nonce: p.newNonce(), done: make(chan struct{}, 1)}
	} else {
		return nil
	}
	if b.chunks < chunks {
		b.chunks = chunks
		b.in = make([]byte, chunks*p.in+1)
		b.out = make([]byte, chunks*p.out)
	}
	return b
}

func (p *pipeline) put(b *batch) {
	b.n, b.res, b.err, b.final = 0, nil, nil, false
	p.free = append(p.free, b)
}

// start processes b on a new goroutine. A batch that is not final is full.
func (p *pipeline) start(b *batch) {
	b.first = p.next
	p.next += uint64(b.chunks)
	p.queue = append(p.queue, b)
	go func() {
		p.work(b)
		b.done <- struct{}{}
	}()
}

// head returns the oldest started batch once it is done, or nil if there is
// none or, unless wait, it is not done yet.
func (p *pipeline) head(wait bool) *batch {
	if len(p.queue) == 0 {
		return nil
	}
	b := p.queue[0]
	if wait {
		<-b.done
	} else {
		select {
		case <-b.done:
		default:
			return nil
		}
	}
	p.queue = append(p.queue[:0], p.queue[1:]...)
	return b
}
