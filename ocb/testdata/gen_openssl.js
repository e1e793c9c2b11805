// gen_openssl.js writes openssl.json: AES-OCB3 (RFC 7253) vectors computed by
// OpenSSL's EVP aes-128-ocb, aes-192-ocb and aes-256-ocb through Node.js's
// crypto module, for fae's agreement test (ocb/vectors_test.go, TestOpenSSL).
//
// Regenerate from the repository root with
//
//	node ocb/testdata/gen_openssl.js
//
// The output depends only on this file: every choice comes from a SHA-256
// counter-mode generator with a fixed seed, so a rerun under any OpenSSL that
// implements RFC 7253 rewrites the same vectors (only the header's versions
// can change).
//
// Coverage. For each key size, ROUNDS rounds each pair a shuffled list of the
// lengths in LENGTHS for the associated data with an independently shuffled
// list of the same lengths for the plaintext, so every length occurs for AD
// and for plaintext under every key size. Nonce sizes (1..15 bytes) and tag
// sizes (8..16 bytes) are drawn from shuffled decks, so each size also
// occurs under every key size.
//
// Message bytes. A vector's key, nonce, AD and plaintext are
// derive(seed, label, n): the first n bytes of
// SHA-256(seed || label || uint32be(0)) || SHA-256(seed || label || uint32be(1)) || ...
// where seed is the 8 bytes of the vector's "seed" field and label is the
// ASCII string "key", "nonce", "ad" or "pt". Short fields (at most SHORT
// bytes) are also stored in hex; for a longer plaintext the file stores the
// SHA-256 of ciphertext || tag instead of the ciphertext.
'use strict';

const crypto = require('crypto');
const fs = require('fs');
const path = require('path');

const SEED = 'fae/ocb/openssl/v1';
const ROUNDS = 2;
const SHORT = 129;
const LENGTHS = [];
for (let n = 0; n <= 70; n++) LENGTHS.push(n);
LENGTHS.push(127, 128, 129, 4095, 4096, 4097, 65543);
const KEY_SIZES = [16, 24, 32];
const NONCE_SIZES = range(1, 15);
const TAG_SIZES = range(8, 16);

function range(lo, hi) {
  const r = [];
  for (let i = lo; i <= hi; i++) r.push(i);
  return r;
}

function sha256(...parts) {
  const h = crypto.createHash('sha256');
  for (const p of parts) h.update(p);
  return h.digest();
}

function u32be(i) {
  const b = Buffer.alloc(4);
  b.writeUInt32BE(i);
  return b;
}

function derive(seed, label, n) {
  const out = [];
  for (let i = 0, have = 0; have < n; i++, have += 32) {
    out.push(sha256(seed, Buffer.from(label, 'ascii'), u32be(i)));
  }
  return Buffer.concat(out).subarray(0, n);
}

// The parameter generator: blocks SHA-256(SEED || uint32be(i)), consumed
// four bytes at a time as big-endian integers.
let block = Buffer.alloc(0);
let counter = 0;

function nextU32() {
  if (block.length === 0) block = sha256(Buffer.from(SEED, 'ascii'), u32be(counter++));
  const v = block.readUInt32BE(0);
  block = block.subarray(4);
  return v;
}

// uniform returns an integer in [0, n), without modulo bias.
function uniform(n) {
  const limit = 0x100000000 - (0x100000000 % n);
  for (;;) {
    const v = nextU32();
    if (v < limit) return v % n;
  }
}

function shuffled(list) {
  const a = list.slice();
  for (let i = a.length - 1; i > 0; i--) {
    const j = uniform(i + 1);
    [a[i], a[j]] = [a[j], a[i]];
  }
  return a;
}

// deck deals values from a list, reshuffling it each time it runs out.
function deck(list) {
  let cards = [];
  return () => {
    if (cards.length === 0) cards = shuffled(list);
    return cards.pop();
  };
}

function seal(key, nonce, ad, pt, tagSize) {
  const c = crypto.createCipheriv(`aes-${key.length * 8}-ocb`, key, nonce, { authTagLength: tagSize });
  c.setAAD(ad, { plaintextLength: pt.length });
  const ct = Buffer.concat([c.update(pt), c.final()]);
  return [ct, c.getAuthTag()];
}

function open(key, nonce, ad, ct, tag) {
  const d = crypto.createDecipheriv(`aes-${key.length * 8}-ocb`, key, nonce, { authTagLength: tag.length });
  d.setAAD(ad, { plaintextLength: ct.length });
  d.setAuthTag(tag);
  return Buffer.concat([d.update(ct), d.final()]);
}

// The RFC 7253 Appendix A vectors with a 128-bit tag, as a check that this
// OpenSSL does OCB3 before anything is written.
function checkRFC() {
  const key = Buffer.from('000102030405060708090a0b0c0d0e0f', 'hex');
  const cases = [
    ['bbaa99887766554433221100', 0, '785407bfffc8ad9edcc5520ac9111ee6'],
    ['bbaa99887766554433221101', 8, '6820b3657b6f615a5725bda0d3b4eb3a257c9af1f8f03009'],
    ['bbaa99887766554433221104', 16, '571d535b60b277188be5147170a9a22c3ad7a4ff3835b8c5701c1ccec8fc3358'],
  ];
  for (const [nonce, n, want] of cases) {
    const msg = Buffer.from(range(0, n - 1));
    const [ct, tag] = seal(key, Buffer.from(nonce, 'hex'), msg, msg, 16);
    if (Buffer.concat([ct, tag]).toString('hex') !== want) {
      throw new Error(`OpenSSL disagrees with RFC 7253 for N=${nonce}`);
    }
  }
}

function main() {
  checkRFC();
  const nonceSize = deck(NONCE_SIZES);
  const tagSize = deck(TAG_SIZES);
  const vectors = [];
  for (const keySize of KEY_SIZES) {
    for (let r = 0; r < ROUNDS; r++) {
      const adLens = shuffled(LENGTHS);
      const ptLens = shuffled(LENGTHS);
      for (let i = 0; i < LENGTHS.length; i++) {
        const seed = Buffer.alloc(8);
        seed.writeUInt32BE(nextU32(), 0);
        seed.writeUInt32BE(nextU32(), 4);
        const key = derive(seed, 'key', keySize);
        const nonce = derive(seed, 'nonce', nonceSize());
        const ad = derive(seed, 'ad', adLens[i]);
        const pt = derive(seed, 'pt', ptLens[i]);
        const [ct, tag] = seal(key, nonce, ad, pt, tagSize());
        if (!open(key, nonce, ad, ct, tag).equals(pt)) throw new Error('round trip failed');
        const v = {
          seed: seed.toString('hex'),
          key: key.toString('hex'),
          nonce: nonce.toString('hex'),
          ad_len: ad.length,
          pt_len: pt.length,
        };
        if (ad.length <= SHORT) v.ad = ad.toString('hex');
        if (pt.length <= SHORT) {
          v.pt = pt.toString('hex');
          v.ct = ct.toString('hex');
        } else {
          v.ct_tag_sha256 = sha256(ct, tag).toString('hex');
        }
        v.tag = tag.toString('hex');
        vectors.push(v);
      }
    }
  }

  const header = {
    algorithm: 'aes-ocb3',
    source: `OpenSSL ${process.versions.openssl} (EVP aes-128-ocb, aes-192-ocb, aes-256-ocb) via Node.js ${process.version} crypto; generated by ocb/testdata/gen_openssl.js; regenerate from the repository root with: node ocb/testdata/gen_openssl.js`,
    notes: 'Each vector: seed (8 bytes, hex); key, nonce (hex; key size 16/24/32, nonce size 1..15); ad_len, pt_len (bytes); ad, pt (hex, only when at most 129 bytes long); ct (hex) when pt is stored, else ct_tag_sha256 = SHA-256(ciphertext || tag); tag (hex, 8..16 bytes; its length is the tag size). key, nonce, ad and pt are all derive(seed, label, n) = the first n bytes of SHA-256(seed || label || uint32be(0)) || SHA-256(seed || label || uint32be(1)) || ..., with label the ASCII string "key", "nonce", "ad" or "pt". ' +
      `AD and plaintext lengths range over ${JSON.stringify(LENGTHS.slice(71))} and 0..70; every length occurs for AD and for plaintext, and every nonce and tag size occurs, under each key size. Parameters come from a SHA-256 counter-mode generator seeded with "${SEED}" (see the generator).`,
  };
  // One vector per line keeps the file compact and its diffs readable.
  const lines = vectors.map((v) => '  ' + JSON.stringify(v));
  const out = JSON.stringify(header, null, 1).replace(/\n}$/, ',\n "vectors": [\n' + lines.join(',\n') + '\n ]\n}\n');
  fs.writeFileSync(path.join(__dirname, 'openssl.json'), out);
}

main();
