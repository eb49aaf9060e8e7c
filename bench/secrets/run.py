#!/usr/bin/env python3
"""The secrets corpus: credentials of the shapes real issuers mint, and
look-alikes that are not credentials (hashes, UUIDs, base64 images, public
keys, placeholders), each written into a memory file of one store, which
`engram check` reads through the real binary. A credential is detected when
check names its file and line; a look-alike is a false alarm when check
names it at all.

The samples are made here, from each issuer's documented shape, with a fixed
seed: the same corpus every run, and no secret-shaped text kept in the tree.
The kinds follow the list a well-known secret scanner (gitleaks) covers.
With --check the exit status is 1 when detection is under 95% or false
alarms over 2% (issue 41).
"""
import argparse
import base64
import random
import re
import string
import subprocess
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

DETECTION_MIN = 0.95
FALSE_ALARM_MAX = 0.02
SAMPLES_PER_SHAPE = 3

rng = random.Random(41)
ALNUM = string.ascii_letters + string.digits
UPPER_DIGIT = string.ascii_uppercase + string.digits
HEX = "0123456789abcdef"
B64 = ALNUM + "+/"
B64URL = ALNUM + "-_"


def pick(chars, n):
    """n random characters of `chars`, with a digit and a letter among them
    when `chars` has both (as random tokens of such lengths do)."""
    both = any(c.isdigit() for c in chars) and any(c.isalpha() for c in chars)
    while True:
        text = "".join(rng.choice(chars) for _ in range(n))
        if not both or (any(c.isdigit() for c in text) and any(c.isalpha() for c in text)):
            return text


def jwt():
    header = base64.urlsafe_b64encode(b'{"alg":"HS256","typ":"JWT"}').rstrip(b"=").decode()
    claims = '{"sub":"%d","name":"ops","iat":%d}' % (rng.randint(1, 10**6), rng.randint(1.6e9, 1.8e9))
    payload = base64.urlsafe_b64encode(claims.encode()).rstrip(b"=").decode()
    return f"{header}.{payload}.{pick(B64URL, 43)}"


def pem_body(lines=6):
    body = pick(B64, 64 * lines)
    return "\n".join(["MII" + body[3:64]] + [body[i:i + 64] for i in range(64, len(body), 64)])


# Each shape: a name and a function making one line (or block) of a note.
SECRETS = {
    "aws access key id": lambda: f"aws_access_key_id = AKIA{pick(UPPER_DIGIT, 16)}",
    "aws temporary key id": lambda: f"The role gave us ASIA{pick(UPPER_DIGIT, 16)} until noon.",
    "aws secret key (base64 with / and +)":
        lambda: "aws_secret_access_key = " + pick(ALNUM, 12) + "/" + pick(B64, 14) + "+" + pick(ALNUM, 12),
    "aws secret key wrapped": lambda: "aws_secret_access_key =\n    " + pick(B64, 40),
    "github classic token": lambda: f"- CI uses ghp_{pick(ALNUM, 36)} for releases",
    "github oauth token": lambda: f"gho_{pick(ALNUM, 36)}",
    "github fine-grained token": lambda: f"token: github_pat_{pick(ALNUM, 22)}_{pick(ALNUM, 59)}",
    "gitlab token": lambda: f"GITLAB_TOKEN=glpat-{pick(ALNUM + '-_', 20)}",
    "slack bot token": lambda: f"slack: xoxb-{rng.randint(10**10, 10**11)}-{rng.randint(10**10, 10**11)}-{pick(ALNUM, 24)}",
    "slack webhook": lambda: f"Alerts post to https://hooks.slack.com/services/T{pick(UPPER_DIGIT, 8)}/B{pick(UPPER_DIGIT, 10)}/{pick(ALNUM, 24)}",
    "discord webhook": lambda: f"https://discord.com/api/webhooks/{rng.randint(10**17, 10**18)}/{pick(B64URL, 68)}",
    "stripe live key": lambda: f"Billing runs with sk_live_{pick(ALNUM, 24)} in production.",
    "stripe test key": lambda: f"STRIPE_KEY=sk_test_{pick(ALNUM, 99)}",
    "stripe restricted key": lambda: f"rk_live_{pick(ALNUM, 24)}",
    "stripe webhook secret": lambda: f"webhook: whsec_{pick(ALNUM, 32)}",
    "openai key": lambda: f"OPENAI_API_KEY=sk-{pick(ALNUM, 48)}",
    "openai project key": lambda: f"use sk-proj-{pick(B64URL, 64)} for the batch job",
    "anthropic key": lambda: f"ANTHROPIC_API_KEY=sk-ant-api03-{pick(B64URL, 93)}AA",
    "google api key": lambda: f"maps: AIza{pick(B64URL, 35)}",
    "google oauth secret": lambda: f"client: GOCSPX-{pick(B64URL, 28)}",
    "twilio api key": lambda: f"twilio SK{pick(HEX, 32)}",
    "sendgrid key": lambda: f"SG.{pick(B64URL, 22)}.{pick(B64URL, 43)}",
    "mailgun key": lambda: f"mailgun key-{pick(HEX, 32)}",
    "npm token": lambda: f"//registry.npmjs.org/:_authToken=npm_{pick(ALNUM, 36)}",
    "pypi token": lambda: f"password = pypi-AgEIcHlwaS5vcmc{pick(B64URL, 70)}",
    "hugging face token": lambda: "HF_TOKEN=hf_" + "".join(rng.choice(string.ascii_letters) for _ in range(34)),
    "shopify token": lambda: f"shpat_{pick(HEX, 32)}",
    "digitalocean token": lambda: f"dop_v1_{pick(HEX, 64)}",
    "databricks token": lambda: f"dapi{pick(HEX, 32)}",
    "json web token": lambda: f"Authorization: Bearer {jwt()}",
    "telegram bot token": lambda: f"bot {rng.randint(10**8, 10**9)}:AA{pick(B64URL, 33)}",
    "square token": lambda: f"sq0atp-{pick(B64URL, 22)}",
    "doppler token": lambda: f"dp.pt.{pick(ALNUM, 43)}",
    "vault token": lambda: f"VAULT_TOKEN=hvs.{pick(B64URL, 92)}",
    "age secret key": lambda: f"AGE-SECRET-KEY-1{pick(UPPER_DIGIT, 58)}",
    "grafana token": lambda: f"glsa_{pick(ALNUM, 32)}_{pick(HEX, 8)}",
    "postman key": lambda: f"PMAK-{pick(HEX, 24)}-{pick(HEX, 34)}",
    "sentry token": lambda: f"sntrys_{pick(B64, 80)}",
    "new relic key": lambda: f"NRAK-{pick(UPPER_DIGIT, 27)}",
    "pulumi token": lambda: f"pul-{pick(HEX, 40)}",
    "alibaba key id": lambda: f"LTAI{pick(ALNUM, 20)}",
    "supabase token": lambda: f"sbp_{pick(HEX, 40)}",
    "replicate token": lambda: f"r8_{pick(ALNUM, 37)}",
    "groq key": lambda: f"gsk_{pick(ALNUM, 52)}",
    "linear key": lambda: f"lin_api_{pick(ALNUM, 40)}",
    "notion token": lambda: f"secret_{pick(ALNUM, 43)}",
    "heroku key": lambda: f"HRKU-{pick(B64URL, 60)}",
    "planetscale password": lambda: f"pscale_pw_{pick(B64URL, 43)}",
    "rsa private key block": lambda: "-----BEGIN RSA PRIVATE KEY-----\n" + pem_body() + "\n-----END RSA PRIVATE KEY-----",
    "openssh private key block": lambda: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA" + pick(B64, 40) + "\n" + pem_body(3) + "\n-----END OPENSSH PRIVATE KEY-----",
    "private key body without its header": lambda: "The key was:\n" + pem_body(5),
    "postgres url password": lambda: f"DATABASE_URL=postgres://app:{pick(ALNUM, 16)}@db.internal:5432/app",
    "redis url password": lambda: f"redis://:{pick(ALNUM, 20)}@cache.internal:6379/0",
    "mongodb url password": lambda: f"mongodb+srv://admin:{pick(ALNUM, 12)}!@cluster0.example.net/db",
    "generic api key (hex)": lambda: f'api_key = "{pick(HEX, 32)}"',
    "generic client secret": lambda: f"client_secret: {pick(B64URL, 40)}",
    "password in a config": lambda: f"db_password: {pick(ALNUM, 10)}#{pick(ALNUM, 3)}",
    "bearer token in a header": lambda: f'curl -H "Authorization: Bearer {pick(ALNUM, 40)}" https://api.example.com',
    "basic auth header": lambda: "Authorization: Basic " + base64.b64encode(f"deploy:{pick(ALNUM, 14)}".encode()).decode(),
    "api key header": lambda: f"-H 'X-Api-Key: {pick(ALNUM, 32)}'",
    "json secret field": lambda: f'{{"client_id": "web", "client_secret": "{pick(B64URL, 40)}"}}',
    "yaml nested token": lambda: f"auth:\n  token: {pick(ALNUM, 32)}",
    "azure storage account key": lambda: f"DefaultEndpointsProtocol=https;AccountName=logs;AccountKey={pick(B64, 86)}==;EndpointSuffix=core.windows.net",
}


def sha(n):
    return "".join(rng.choice(HEX) for _ in range(n))


def uuid():
    h = sha(32)
    return f"{h[:8]}-{h[8:12]}-4{h[13:16]}-a{h[17:20]}-{h[20:32]}"


def png_base64(n=300):
    return "iVBORw0KGgoAAAANSUhEUgAA" + "".join(rng.choice(B64) for _ in range(n)) + "=="


LOOK_ALIKES = {
    "git commit id in prose": lambda: f"Fixed in commit {sha(40)} last week.",
    "short commit id": lambda: f"- Reverted {sha(7)} and {sha(7)}.",
    "sha-256 checksum line": lambda: f"{sha(64)}  engram-1.4.0.tar.gz",
    "checksum field": lambda: f"checksum: sha256:{sha(64)}",
    "column of digests": lambda: "\n".join(sha(64) for _ in range(4)),
    "md5 of a file": lambda: f"md5 {sha(32)} matches the mirror",
    "uuid": lambda: f"request {uuid()} failed",
    "uuid assigned to an id": lambda: f"request_id = {uuid()}",
    "base64 image data uri": lambda: f"![logo](data:image/png;base64,{png_base64()})",
    "base64 wrapped at 76 (MIME)": lambda: "\n".join(png_base64(76 * 4)[i:i + 76] for i in range(0, 76 * 4, 76)),
    "ssh ed25519 public key": lambda: f"ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAI{pick(B64, 43)} dev@laptop",
    "ssh rsa public key": lambda: f"public_key: ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ{pick(B64, 300)} ci",
    "pgp public key block": lambda: "-----BEGIN PGP PUBLIC KEY BLOCK-----\n\n" + pem_body(5) + "\n-----END PGP PUBLIC KEY BLOCK-----",
    "certificate block": lambda: "-----BEGIN CERTIFICATE-----\n" + pem_body(5) + "\n-----END CERTIFICATE-----",
    "npm integrity": lambda: f'"integrity": "sha512-{pick(B64, 86)}=="',
    "docker digest": lambda: f"image: nginx@sha256:{sha(64)}",
    "url without a password": lambda: f"https://grafana.example.org/d/{pick(ALNUM, 9)}/orders?orgId=1",
    "url with a user only": lambda: f"git clone ssh://git@{rng.choice(['github.com', 'gitlab.com'])}/acme/{pick(string.ascii_lowercase, 8)}.git",
    "url with a placeholder password": lambda: "postgres://app:${PGPASSWORD}@db.internal:5432/app",
    "url with a port": lambda: f"http://localhost:{rng.randint(1024, 65000)}/health",
    "placeholder password": lambda: "password: <your password here>",
    "placeholder api key": lambda: 'api_key = "YOUR_API_KEY_HERE"',
    "masked password": lambda: "db_password: ********",
    "env reference": lambda: "token: ${GITHUB_TOKEN}",
    "stripe placeholder": lambda: "STRIPE_KEY=sk_live_XXXXXXXXXXXXXXXXXXXXXXXX",
    "password policy": lambda: f"password_min_length: {rng.randint(8, 20)}",
    "token count": lambda: f"max_tokens: {rng.randint(256, 8192)}",
    "identifier under a key name": lambda: f"cache_key = user_profile_v{rng.randint(1, 9)}_{rng.randint(2020, 2026)}_final",
    "words under a token name": lambda: "session_token: expires_after_30_minutes",
    "prose about keys": lambda: f"We rotated the API key on 2026-0{rng.randint(1, 9)}-1{rng.randint(0, 9)} and the token a day later.",
    "prefix mention": lambda: rng.choice(["The AKIA prefix marks long-term AWS keys.", "GitHub tokens start with ghp_ or github_pat_.", "Stripe secret keys begin sk_live_.", "JWTs begin with eyJ."]),
    "sk-learn name": lambda: f"We use sk-learn-pipeline-version-{rng.randint(2, 9)}-final for scoring.",
    "timestamp": lambda: f"created: 2026-{rng.randint(1, 12):02}-{rng.randint(1, 28):02}T10:{rng.randint(10, 59)}:00Z",
    "email": lambda: f"Contact {pick(string.ascii_lowercase, 6)}@example.org about access.",
    "ipv6": lambda: f"The node listens on 2001:db8:{sha(4)}:{sha(4)}::{sha(2)}.",
    "mac address": lambda: ":".join(sha(2) for _ in range(6)),
    "version string": lambda: f"engram {rng.randint(0, 9)}.{rng.randint(0, 30)}.{rng.randint(0, 99)}-rc{rng.randint(1, 5)}+build.{sha(7)}",
    "long camel case": lambda: "AbstractSingletonProxyFactoryBeanConfigurationProviderImpl handles it.",
    "k8s secret manifest": lambda: "kind: Secret\nmetadata:\n  name: db-credentials",
    "bcrypt hash": lambda: f"password_hash: $2b$12${pick(B64, 53)}",
    "twilio account sid": lambda: f"account_sid: AC{sha(32)}",
    "etag": lambda: f'etag: "{sha(40)}"',
    "hex colour": lambda: f"color: #{sha(6)}",
    "file path": lambda: f"/var/lib/engram/history/memory-{sha(16)}.git/objects/pack/pack-{sha(40)}.idx",
    "key value prose": lambda: "key: the shared folder is /srv/team, token: none needed",
    "comparison in code": lambda: f"if (api_key == '{sha(22)}') return;",
    "jwt-like dotted words": lambda: "eyJhbGci.is.how.a.token.starts",
    "api key name": lambda: "api_key_name: production-billing-key",
    "secret santa": lambda: "secret_santa: assigned on Friday",
    "random value under a non-secret name": lambda: f"build_id = {pick(ALNUM, 20)}",
    "git sha under a name": lambda: f"git_sha={sha(40)}",
    "authorization prose": lambda: "Authorization: see the runbook for how tokens are issued",
    "basic auth placeholder": lambda: "Authorization: Basic ${BASIC_AUTH}",
    "ordinary note": lambda: rng.choice(["- Shopify's admin API pages at 250 rows.", "## Solution: rotate the signing key", "- The staging cluster runs on three nodes.", "Always pass `limit=250` when paging through orders."]),
}

# The places a line sits in a note: a credential (or a look-alike) is
# found the same in each.
CONTEXTS = ["{}", "- {}", "> {}", "| prod | {} |", "`{}`", "Note: {} (from the wiki)"]


def in_context(text):
    return text if "\n" in text else rng.choice(CONTEXTS).format(text)


MEMORY_FRONT = "---\ntype: semantic\ntags: [corpus]\ncreated: 2026-01-05\n---\n# Sample\n\n"


def build(store, samples):
    """One memory file per sample."""
    for name, (_, _, text) in samples.items():
        (store / "semantic" / f"{name}.md").write_text(MEMORY_FRONT + text + "\n")


def run(engram, samples):
    with tempfile.TemporaryDirectory(prefix="engram-secrets-") as tmp:
        store = Path(tmp) / "store"
        env = {"HOME": tmp, "XDG_CONFIG_HOME": f"{tmp}/config", "XDG_DATA_HOME": f"{tmp}/data",
               "PATH": "/usr/bin:/bin", "ASAN_OPTIONS": "detect_leaks=0"}
        subprocess.run([engram, "init", str(store)], check=True, capture_output=True, env=env)
        build(store, samples)
        checked = subprocess.run([engram, "check", "--store", str(store)], capture_output=True,
                                 text=True, env=env)
        flagged = set()
        for line in (checked.stdout + checked.stderr).splitlines():
            found = re.search(r"semantic/(sample-\d+)\.md:(\d+): looks like", line)
            if found:
                flagged.add(found.group(1))
        return flagged


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--engram", required=True)
    parser.add_argument("--check", action="store_true", help="exit 1 when a target is missed")
    args = parser.parse_args()
    samples = {}
    for label, shapes in (("secret", SECRETS), ("benign", LOOK_ALIKES)):
        for family, make in shapes.items():
            for _ in range(SAMPLES_PER_SHAPE):
                samples[f"sample-{len(samples):04}"] = (label, family, in_context(make()))
    flagged = run(args.engram, samples)
    totals = defaultdict(int)
    hits = defaultdict(int)
    wrong = defaultdict(list)
    for name, (label, family, _) in samples.items():
        totals[label] += 1
        hit = name in flagged
        hits[label] += hit
        if hit != (label == "secret"):
            wrong[label].append(family)
    detection = hits["secret"] / totals["secret"]
    false_alarms = hits["benign"] / totals["benign"]
    print(f"secrets corpus: {totals['secret']} credentials of {len(SECRETS)} shapes, "
          f"{totals['benign']} look-alikes of {len(LOOK_ALIKES)} kinds")
    print(f"detection    {hits['secret']}/{totals['secret']} = {detection:.2%} (target >= {DETECTION_MIN:.0%})")
    print(f"false alarms {hits['benign']}/{totals['benign']} = {false_alarms:.2%} (target <= {FALSE_ALARM_MAX:.0%})")
    for family in sorted(set(wrong["secret"])):
        print(f"  missed: {family} ({wrong['secret'].count(family)} of {SAMPLES_PER_SHAPE})")
    for family in sorted(set(wrong["benign"])):
        print(f"  false alarm: {family} ({wrong['benign'].count(family)} of {SAMPLES_PER_SHAPE})")
    if args.check and (detection < DETECTION_MIN or false_alarms > FALSE_ALARM_MAX):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
