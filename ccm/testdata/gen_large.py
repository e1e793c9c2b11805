# Generates large.json: CCM results from pyca/cryptography (OpenSSL) for long
# messages and associated data, where the length encodings and the counter
# width matter. Inputs are the pattern byte(i*7 + seed); run with python3.
import hashlib, json
import cryptography
from cryptography.hazmat.primitives.ciphers.aead import AESCCM

def pattern(n, seed):
    return bytes((i * 7 + seed) & 0xff for i in range(n))

cases = [  # key size, nonce size, tag size, ad length, message length
    (16, 13, 16, 0, 65535), (16, 13, 8, 65279, 4096), (32, 13, 4, 65280, 4097),
    (16, 12, 16, 0, 65536 + 7), (24, 12, 10, 31, 16384), (32, 12, 16, 30, 1 << 20),
    (16, 11, 12, 70000, 100000), (32, 7, 14, 15, (1 << 20) + 3), (16, 8, 6, 14, 4095),
]
out = []
for ks, ns, ts, al, ml in cases:
    key, nonce = pattern(ks, 1), pattern(ns, 2)
    ad, pt = pattern(al, 3), pattern(ml, 4)
    ct = AESCCM(key, tag_length=ts).encrypt(nonce, pt, ad or None)
    out.append({"key_size": ks, "nonce_size": ns, "tag_size": ts, "ad_len": al, "pt_len": ml,
                "ct_tag_sha256": hashlib.sha256(ct).hexdigest(), "tag": ct[-ts:].hex()})
json.dump({"source": "pyca/cryptography %s AESCCM (OpenSSL), by gen_large.py; key, nonce, ad and pt are the bytes "
           "(i*7 + seed) mod 256 with seeds 1, 2, 3 and 4" % cryptography.__version__, "vectors": out},
          open("large.json", "w"), indent=1)
