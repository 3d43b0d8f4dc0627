"""The secret-shape corpus of the egress suite: over a hundred samples of credential shape (not
real ones) in over thirty families, each in a context it is usually pasted in; `leaks` is the
material that must never leave in the clear. `ORDINARY` holds no secret and must stay as is."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import uuid
from dataclasses import dataclass
from pathlib import Path

B62 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
UPPER = "ABCDEFGHIJKLMNOPQRSTUVWXYZ234567"
LOWER_HEX = "0123456789abcdef"
B64 = B62 + "+/"


@dataclass(frozen=True)
class Sample:
    family: str
    text: str
    leaks: tuple[str, ...]


def cycle(alphabet: str, length: int, offset: int = 0) -> str:
    """A deterministic string of `length` characters drawn from `alphabet`."""
    return "".join(alphabet[(offset + 7 * i + i // 5) % len(alphabet)] for i in range(length))


def drawn(alphabet: str, length: int, seed: int) -> str:
    """A deterministic string of `length` characters drawn at random from `alphabet` (as a
    real token is: no pattern an entropy measure could hold against it)."""
    chooser = random.Random(seed)
    return "".join(chooser.choice(alphabet) for _ in range(length))


def _s(family: str, text: str, *leaks: str) -> Sample:
    return Sample(family, text, leaks)


def _pem(label: str, offset: int, lines: int = 4) -> tuple[list[str], str]:
    body = [cycle(B64, 64, offset + n) for n in range(lines)] + [cycle(B64, 20, offset) + "=="]
    return [f"-----BEGIN {label}-----", *body, f"-----END {label}-----"], body[1]


def _b64url(value: dict[str, object]) -> str:
    raw = json.dumps(value, separators=(",", ":")).encode()
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _provider_keys() -> list[Sample]:
    """Model and cloud provider keys."""
    out: list[Sample] = []
    add = out.append
    for n in range(3):
        key = "sk-ant-" + "api03-" + cycle(B62 + "-_", 80, n)
        add(_s("anthropic", [f"ANTHROPIC_API_KEY={key}", f"key {key}", f'"{key}"'][n], key[13:]))
    for n, prefix in enumerate(("sk-proj-", "sk-", "sk-svcacct-")):
        key = prefix + cycle(B62, 48, n + 3)
        add(_s("openai", f"OPENAI_API_KEY: {key}", key[len(prefix) :]))
    for n, prefix in enumerate(("ghp", "gho", "ghu", "ghs", "ghr")):
        token = f"{prefix}_" + cycle(B62, 36, n)
        add(
            _s("github-token", f"git push https://x-access-token:{token}@github.com/o/r", token[4:])
        )
    pat = "github_pat_" + cycle(B62, 22, 1) + "_" + cycle(B62, 59, 2)
    add(_s("github-pat", f"GH_TOKEN={pat}", pat[11:]))
    add(_s("github-pat", json.dumps({"auth": {"token": pat}}), pat[11:]))
    for n, prefix in enumerate(("glpat-", "gldt-", "glrt-", "glptt-")):
        token = prefix + cycle(B62 + "_-", 24, n)
        add(_s("gitlab", f"CI_JOB_TOKEN {token}", token[len(prefix) :]))
    akia = "AKIA" + cycle(UPPER, 16, 5)
    asia = "ASIA" + cycle(UPPER, 16, 6)
    aws_secret = cycle(B64, 40, 7)
    add(_s("aws-access-key-id", f"aws_access_key_id = {akia}", akia[4:]))
    add(_s("aws-access-key-id", f"[{akia}]", akia[4:]))
    add(_s("aws-access-key-id", f"AWS_ACCESS_KEY_ID={asia}", asia[4:]))
    add(_s("aws-secret-key", f"aws_secret_access_key = {aws_secret}", aws_secret))
    add(_s("aws-secret-key", json.dumps({"AWS_SECRET_ACCESS_KEY": aws_secret}), aws_secret))
    add(_s("aws-secret-key", f"export AWS_SECRET_ACCESS_KEY='{aws_secret}'", aws_secret))
    google = "AIza" + cycle(B62 + "_-", 35, 8)
    add(_s("google-api-key", f"https://maps.example.invalid/api?key={google}", google[4:]))
    add(_s("google-api-key", f"GOOGLE_API_KEY: {google}", google[4:]))
    oauth = "GOCSPX-" + cycle(B62 + "_-", 28, 9)
    add(_s("google-oauth", f'"client_secret": "{oauth}"', oauth[7:]))
    add(_s("google-oauth", f"GOOGLE_CLIENT_SECRET={oauth}", oauth[7:]))
    ya29 = "ya29." + cycle(B62 + "_-", 60, 10)
    add(_s("google-oauth", f"access token {ya29}", ya29[5:]))
    azure_key = cycle(B64, 86, 11) + "=="
    add(
        _s(
            "azure-storage",
            "DefaultEndpointsProtocol=https;AccountName=acct;"
            f"AccountKey={azure_key};EndpointSuffix=core.windows.net",
            azure_key[:40],
        )
    )
    sas = cycle(B64, 43, 12) + "="
    add(_s("azure-storage", f"Endpoint=sb://ns/;SharedAccessKey={sas}", sas[:30]))
    azure_secret = cycle(B62, 3, 13) + "8Q~" + cycle(B62 + "_~.-", 34, 14)
    add(_s("azure-client-secret", f"AZURE_CLIENT_SECRET={azure_secret}", azure_secret[6:]))
    add(_s("azure-client-secret", f"secret value {azure_secret} copied", azure_secret[6:]))
    hf = "hf_" + cycle(B62, 34, 15)
    add(_s("huggingface", f"HF_TOKEN={hf}", hf[3:]))
    add(_s("huggingface", f"huggingface-cli login --token {hf}", hf[3:]))
    ali = "LTAI" + cycle(B62, 20, 16)
    add(_s("alibaba", f"access key id {ali}", ali[4:]))
    return out


def _service_tokens() -> list[Sample]:
    """Chat, mail and payment services."""
    out: list[Sample] = []
    add = out.append
    for n, prefix in enumerate(("xoxb-", "xoxp-", "xoxa-", "xoxs-", "xoxr-", "xoxo-")):
        token = prefix + "2048" + cycle("0123456789", 9, n) + "-" + cycle(B62, 24, n)
        add(_s("slack-token", f"SLACK_TOKEN={token}", token[5:]))
    xapp = "xapp-1-A0" + cycle(UPPER, 9, 3) + "-4096" + cycle("0123456789", 8, 4) + "-"
    xapp += cycle(LOWER_HEX, 64, 5)
    add(_s("slack-app-token", f"SLACK_APP_TOKEN: {xapp}", xapp[5:]))
    hook = "https://hooks.slack.com/services/T0" + cycle(UPPER, 8, 1) + "/B0"
    hook += cycle(UPPER, 8, 2) + "/" + cycle(B62, 24, 3)
    add(_s("slack-webhook", f"webhook: {hook}", hook[34:]))
    add(_s("slack-webhook", json.dumps({"url": hook}), hook[34:]))
    discord_hook = "https://discord.com/api/webhooks/1234567890123456789/" + cycle(
        B62 + "_-", 68, 4
    )
    add(_s("discord", f"DISCORD_WEBHOOK={discord_hook}", discord_hook[-68:]))
    bot = "MT" + cycle(B62, 24, 5) + "." + cycle(B62, 6, 6) + "." + cycle(B62 + "_-", 38, 7)
    add(_s("discord", f"DISCORD_BOT_TOKEN={bot}", bot[2:]))
    telegram = "7123456789:AA" + cycle(B62 + "_-", 33, 8)
    add(_s("telegram", f"TELEGRAM_BOT_TOKEN={telegram}", telegram[13:]))
    add(_s("telegram", f"https://api.telegram.org/bot{telegram}/getMe", telegram[13:]))
    sendgrid = "SG." + cycle(B62 + "_-", 22, 9) + "." + cycle(B62 + "_-", 43, 10)
    add(_s("sendgrid", f"SENDGRID_API_KEY={sendgrid}", sendgrid[3:]))
    add(_s("sendgrid", f"sg = SendGridAPIClient('{sendgrid}')", sendgrid[3:]))
    mailgun = "key-" + cycle(B62, 32, 11)
    add(_s("mailgun", f"MAILGUN_KEY {mailgun}", mailgun[4:]))
    twilio = "SK" + cycle(LOWER_HEX, 32, 12)
    add(_s("twilio", f"TWILIO_API_KEY {twilio}", twilio[2:]))
    for n, prefix in enumerate(("sk_live_", "rk_live_", "sk_test_")):
        key = prefix + cycle(B62, 24, 13 + n)
        add(_s("stripe", f"Stripe.api_key = '{key}'", key[len(prefix) :]))
    whsec = "whsec_" + cycle(B62, 32, 16)
    add(_s("stripe-webhook", f"STRIPE_WEBHOOK_SECRET={whsec}", whsec[6:]))
    square = "sq0atp-" + cycle(B62 + "_-", 22, 17)
    add(_s("square", f"square token {square}", square[7:]))
    square_secret = "sq0csp-" + cycle(B62 + "_-", 43, 18)
    add(_s("square", f"SQUARE_SECRET {square_secret}", square_secret[7:]))
    shopify = "shpat_" + cycle(LOWER_HEX, 32, 19)
    add(_s("shopify", f"X-Shopify-Access-Token: {shopify}", shopify[6:]))
    add(_s("shopify", f"shop token shpss_{cycle(LOWER_HEX, 32, 20)}", cycle(LOWER_HEX, 32, 20)))
    return out


def _platform_tokens() -> list[Sample]:
    """Developer platforms and infrastructure."""
    out: list[Sample] = []
    add = out.append
    npm = "npm_" + cycle(B62, 36, 21)
    add(_s("npm", f"//registry.npmjs.org/:_authToken={npm}", npm[4:]))
    add(_s("npm", f"NPM_TOKEN={npm}", npm[4:]))
    pypi = "pypi-AgEIcHlwaS5vcmc" + cycle(B62 + "_-", 70, 22)
    add(_s("pypi", f"password = {pypi}", pypi[20:]))
    add(_s("pypi", f"TWINE_PASSWORD={pypi}", pypi[20:]))
    for n, prefix in enumerate(("dop_v1_", "doo_v1_")):
        token = prefix + cycle(LOWER_HEX, 64, 23 + n)
        add(_s("digitalocean", f"DIGITALOCEAN_TOKEN={token}", token[7:]))
    heroku = "HRKU-" + cycle(B62 + "_-", 60, 25)
    add(_s("heroku", f"heroku token {heroku}", heroku[5:]))
    heroku_uuid = "01234567-89ab-cdef-0123-456789abcdef"
    add(_s("heroku", f"HEROKU_API_KEY={heroku_uuid}", heroku_uuid))
    atlassian = "ATATT3xFfGF0" + cycle(B62 + "_-", 180, 26)
    add(_s("atlassian", f"JIRA_API_TOKEN={atlassian}", atlassian[12:60]))
    databricks = "dapi" + cycle(LOWER_HEX, 32, 27)
    add(_s("databricks", f"DATABRICKS_TOKEN {databricks}", databricks[4:]))
    grafana = "glsa_" + cycle(B62, 32, 28) + "_" + cycle(LOWER_HEX, 8, 29)
    add(_s("grafana", f"GRAFANA_TOKEN={grafana}", grafana[5:]))
    vault = "hvs." + cycle(B62 + "_-", 90, 30)
    add(_s("vault", f"VAULT_TOKEN={vault}", vault[4:]))
    doppler = "dp.pt." + cycle(B62, 43, 31)
    add(_s("doppler", f"DOPPLER_TOKEN {doppler}", doppler[6:]))
    postman = "PMAK-" + cycle(LOWER_HEX, 24, 32) + "-" + cycle(LOWER_HEX, 34, 33)
    add(_s("postman", f"postman key {postman}", postman[5:]))
    linear = "lin_api_" + cycle(B62, 40, 34)
    add(_s("linear", f"LINEAR_API_KEY={linear}", linear[8:]))
    newrelic = "NRAK-" + cycle(UPPER, 27, 35)
    add(_s("newrelic", f"NEW_RELIC_API_KEY {newrelic}", newrelic[5:]))
    age = "AGE-SECRET-KEY-1" + cycle("QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L", 58, 36)
    add(_s("age", f"# created: 2026\n{age}", age[16:]))
    return out


def _protocol_tokens() -> list[Sample]:
    """Tokens in protocols."""
    out: list[Sample] = []
    add = out.append
    jwt = ".".join(
        [
            _b64url({"alg": "HS256", "typ": "JWT"}),
            _b64url({"sub": "1234567890", "name": "Ada", "iat": 1767225600}),
            cycle(B62 + "-_", 43, 37),
        ]
    )
    add(_s("jwt", f"session={jwt}; Path=/", *jwt.split(".")[1:]))
    add(_s("jwt", f"Authorization: Bearer {jwt}", *jwt.split(".")[1:]))
    bearer = cycle(B62 + "._~+/-", 40, 38)
    add(_s("bearer", f"curl -H 'Authorization: Bearer {bearer}' https://x.invalid", bearer))
    basic = base64.b64encode(b"deploy:" + cycle(B62, 14, 39).encode()).decode()
    add(_s("basic-auth", f"Authorization: Basic {basic}", basic))
    return out


def _url_credentials() -> list[Sample]:
    """Credentials in URLs and command lines."""
    out: list[Sample] = []
    add = out.append
    for password in (
        "S3cr3t-" + cycle(B62, 9, 40),
        "pa/ss" + cycle(B62, 6, 41),
        "p#w!" + cycle(B62, 7, 42),
    ):
        add(_s("url-credentials", f"postgres://app:{password}@db.internal:5432/app", password))
    add(_s("url-credentials", "redis://:hunter2" + cycle(B62, 5, 43) + "@cache:6379/0", "hunter2"))
    at = "p@ss" + cycle(B62, 8, 44)
    add(_s("url-credentials", f"mongodb+srv://ops:{at}@cluster0.example.invalid/db", at))
    pw = cycle(B62, 12, 45)
    add(_s("url-credentials", f"https://deploy:{pw}@git.example.invalid/r.git", pw))
    add(
        _s(
            "curl-credentials",
            "curl -u admin:Tr0ub4dor&3x https://api.example.invalid",
            "Tr0ub4dor",
        )
    )
    pw = cycle(B62, 10, 46)
    add(_s("curl-credentials", f"curl --user 'ci:{pw}' https://x.invalid", pw))
    return out


def _assignments() -> list[Sample]:
    """Key = value assignments, short and quoted values included; no value is all hex digits,
    which a record's random id suffix or commit hash could spell by chance."""
    out: list[Sample] = []
    add = out.append
    for line in (
        "password=hunter2x",
        "PASSWORD: 'tiny'",
        'db_password = "correct horse battery"',
        "passwd=abx12",
        "pwd=Zx9!q",
        "client_secret: s3cr3tvalue",
        "token=abx123",
        "SECRET=shortone",
        "secret: K9x-2",
        "api_key = 'k-123456'",
        "APIKEY=xyz789",
        "access_key: AK-short",
        "MYSQL_ROOT_PASSWORD=rootpw1",
        "PGPASSWORD=pgsecret9",
        "Server=db;User Id=sa;Password=Sa-Passw0rd;",
        "auth_token => 'tok-99-zz'",
        "jwt_secret := 'qwerty12'",
    ):
        value = line.rsplit("=", 1)[-1] if "=" in line else line.split(":", 1)[1]
        value = value.strip(" '\";>").split(";")[0]
        add(_s("assignment", line, value))
    add(_s("assignment", json.dumps({"password": "hunter2x", "user": "ada"}), "hunter2x"))
    add(_s("assignment", json.dumps({"db": {"credentials": {"secret": "n3st3d"}}}), "n3st3d"))
    # a JSON document carried inside a JSON string: the secret sits behind escaped quotes
    inner = json.dumps({"config": json.dumps({"password": "inn3rpw", "token": "t0ken99"})})
    add(_s("json-in-json", inner, "inn3rpw", "t0ken99"))
    secret = cycle(B62, 32, 47)
    add(_s("json-in-json", json.dumps({"log": f"client_secret={secret}"}), secret))
    return out


def _private_keys() -> list[Sample]:
    """Private keys: PEM with real newlines, PEM with escaped `\\n`, OpenSSH and PGP bodies."""
    out: list[Sample] = []
    add = out.append
    for n, label in enumerate(("RSA PRIVATE KEY", "PRIVATE KEY", "EC PRIVATE KEY")):
        lines, leak = _pem(label, 50 + n)
        add(_s("pem", "\n".join(lines), leak, lines[2]))
        add(_s("pem-escaped", "\\n".join(lines), leak, lines[2], lines[-1][5:]))
        add(_s("pem-escaped", json.dumps({"private_key": "\n".join(lines)}), leak, lines[2]))
    lines, leak = _pem("ENCRYPTED PRIVATE KEY", 60)
    add(_s("pem-escaped", 'KEY="' + "\\n".join(lines) + '"', leak))
    ssh_body = "b3BlbnNzaC1rZXktdjEAAAAABG5vbmUAAAAEbm9uZQAAAAAAAAABAAAAMwAAAAtzc2gtZW"
    ssh_lines = [ssh_body, cycle(B64, 70, 61), cycle(B64, 70, 62)]
    add(_s("openssh", "\n".join(ssh_lines), ssh_lines[1]))
    add(
        _s(
            "openssh",
            "-----BEGIN OPENSSH PRIVATE KEY-----\\n"
            + "\\n".join(ssh_lines)
            + "\\n-----END OPENSSH PRIVATE KEY-----",
            ssh_lines[1],
        )
    )
    pgp_body = [cycle(B64, 64, 63), cycle(B64, 64, 64)]
    pgp = "\n".join(
        [
            "-----BEGIN PGP PRIVATE KEY BLOCK-----",
            "",
            *pgp_body,
            "=AbCd",
            "-----END PGP PRIVATE KEY BLOCK-----",
        ]
    )
    add(_s("pgp", pgp, *pgp_body))
    add(_s("pgp", pgp.replace("\n", "\\n"), *pgp_body))
    return out


def _command_lines() -> list[Sample]:
    """Passwords handed to a command on its command line, the shell or a transcript."""
    out: list[Sample] = []
    add = out.append
    pw = "V9x!q2" + drawn(B62, 6, 101)
    add(_s("mysql-password", f"mysql -h db.internal -u root -p{pw} app", pw))
    pw = "Tr1cky-" + drawn(B62, 6, 102)
    add(_s("mysql-password", f"mysqldump -uadmin -p'{pw}' --all-databases > all.sql", pw))
    pw = drawn(B62, 12, 103)
    add(_s("mysql-password", f"mariadb -p\"{pw}\" -u app -e 'select 1'", pw))
    pw = "Ci-" + drawn(B62, 9, 104)
    add(_s("mysql-password", f"mysql --user=ci --password={pw} -e 'show databases'", pw))
    pw = "hunter2-" + drawn(B62, 6, 105)
    add(_s("sshpass", f"sshpass -p '{pw}' ssh deploy@web1.example.invalid uptime", pw))
    pw = "S5h-" + drawn(B62, 8, 106)
    add(_s("sshpass", f"sshpass -p {pw} scp build.tar deploy@web1:/srv", pw))
    pw = drawn(B62, 11, 107)
    add(_s("sshpass", f"SSHPASS={pw} sshpass -e rsync -a out/ deploy@web1:/srv/", pw))
    pw = "Dk-" + drawn(B62, 10, 108)
    add(_s("command-password", f"docker login -u ci -p {pw} registry.example.invalid", pw))
    pw = drawn(B62, 14, 109)
    add(_s("command-password", f"redis-cli -h cache -a {pw} ping", pw))
    pw = drawn(B62, 10, 110)
    add(_s("command-password", f"htpasswd -b -c /etc/nginx/.htpasswd admin {pw}", pw))
    pw = "Ldap-" + drawn(B62, 8, 111)
    add(_s("command-password", f"ldapsearch -x -D cn=admin,dc=example -w {pw} -b dc=example", pw))
    return out


def _issue_files() -> list[Sample]:
    """Credentials in the files and prompts tools write them to: netrc, Docker's config, the
    AWS CLI's prompts, a PuTTY key, a bare PKCS#8 body, a password on the line after its
    label, passphrases written as words."""
    out: list[Sample] = []
    add = out.append
    pw = "N3trc-" + drawn(B62, 8, 120)
    add(_s("netrc", f"machine api.example.invalid login ada password {pw}", pw))
    pw = drawn(B62 + "!#%", 14, 121)
    add(_s("netrc", f"machine git.example.invalid\n  login deploy\n  password {pw}\n", pw))
    pw = drawn(B62, 12, 122)
    add(_s("netrc", f"default login anonymous password {pw}", pw))
    auth = base64.b64encode(b"deploy:" + drawn(B62, 16, 123).encode()).decode()
    config = {"auths": {"https://index.docker.io/v1/": {"auth": auth}}}
    add(_s("docker-auth", json.dumps(config, indent="\t"), auth))
    auth = base64.b64encode(b"ci-bot:" + drawn(B62, 20, 124).encode()).decode()
    add(_s("docker-auth", json.dumps({"auths": {"ghcr.io": {"auth": auth}}}), auth))
    secret = drawn(B64, 40, 125)
    key_id = "AKIA" + drawn(UPPER, 16, 126)
    add(
        _s(
            "aws-cli-prompt",
            f"$ aws configure\nAWS Access Key ID [None]: {key_id}\n"
            f"AWS Secret Access Key [None]: {secret}\nDefault region name [None]: eu-west-1\n",
            key_id[4:],
            secret,
        )
    )
    secret = drawn(B64, 40, 127)
    add(_s("aws-cli-prompt", f"AWS Secret Access Key [****************MPLE]: {secret}", secret))
    public = [drawn(B64, 64, 128), drawn(B64, 40, 129)]
    private = [drawn(B64, 64, 130 + n) for n in range(3)] + [drawn(B64, 20, 134) + "="]
    ppk = "\n".join(
        [
            "PuTTY-User-Key-File-3: ssh-rsa",
            "Encryption: none",
            "Comment: rsa-key-20261201",
            f"Public-Lines: {len(public)}",
            *public,
            f"Private-Lines: {len(private)}",
            *private,
            "Private-MAC: " + drawn(LOWER_HEX, 64, 135),
        ]
    )
    add(_s("putty-key", ppk, private[0], private[2]))
    add(_s("putty-key", json.dumps({"key": ppk}), private[1]))
    head = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSjAgEAAoIBAQ"
    body = [head + drawn(B64, 14, 136)] + [drawn(B64, 64, 137 + n) for n in range(4)]
    add(_s("pkcs8-body", "\n".join(body), body[0][len(head) :], body[2]))
    add(_s("pkcs8-body", "PRIVATE_KEY=" + "".join(body), body[1]))
    ec = "MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg" + drawn(B64, 43, 141) + "="
    add(_s("pkcs8-body", json.dumps({"signing_key": ec}), ec[48:]))
    ed = "MC4CAQAwBQYDK2VwBCIEI" + drawn(B64, 43, 142)
    add(_s("pkcs8-body", f"ED25519_KEY: {ed}", ed[21:]))
    pw = "Zq7-" + drawn(B62, 8, 143)
    add(_s("password-next-line", f"Username: deploy\nPassword:\n{pw}\n", pw))
    pw = drawn(B62 + "-_", 14, 144)
    add(_s("password-next-line", f"db:\n  user: app\n  password:\n    {pw}\n", pw))
    pw = drawn(B62, 12, 145)
    add(_s("password-next-line", f"password: |\n  {pw}\nhost: db\n", pw))
    for text, leak in (
        ("passphrase: correct horse battery staple", "horse battery"),
        ("GPG_PASSPHRASE=tumble orchid lantern velvet", "orchid lantern"),
        ('gpg --batch --passphrase "amber kettle meadow piano" -d notes.gpg', "kettle meadow"),
        ("ssh-keygen -t ed25519 -f deploy -N 'orbit maple fjord quiet'", "maple fjord"),
        ("openssl rsa -in key.pem -passin pass:velvet-harbor-moss -out plain.pem", "harbor-moss"),
        ("The wifi password: marble otter fjord quince", "otter fjord"),
    ):
        add(_s("passphrase-words", text, leak))
    return out


def _issue_tokens() -> list[Sample]:
    """Tokens the table had no shape for, and a quote inside a secret's value."""
    out: list[Sample] = []
    add = out.append
    groq = "gsk_" + drawn(B62, 52, 150)
    add(_s("groq", f"GROQ_API_KEY={groq}", groq[4:]))
    add(_s("groq", f'client = Groq(api_key="{groq}")', groq[4:]))
    hex40 = drawn(LOWER_HEX, 40, 151)
    add(_s("authorization-token", f"Authorization: token {hex40}", hex40))
    hex40 = drawn(LOWER_HEX, 40, 152)
    curl = f'curl -H "Authorization: Token {hex40}" https://api.example.invalid/user'
    add(_s("authorization-token", curl, hex40))
    replicate = "r8_" + drawn(B62, 37, 153)
    add(_s("replicate", f"REPLICATE_API_TOKEN={replicate}", replicate[3:]))
    add(_s("replicate", f"token {replicate} in the notebook", replicate[3:]))
    supabase = "sbp_" + drawn(LOWER_HEX, 40, 154)
    add(_s("supabase", f"supabase login --token {supabase}", supabase[4:]))
    for n, prefix in enumerate(("pscale_tkn_", "pscale_pw_", "pscale_oauth_")):
        token = prefix + drawn(B62 + "_", 43, 155 + n)
        add(_s("planetscale", f"PLANETSCALE_SERVICE_TOKEN {token}", token[len(prefix) :]))
    pulumi = "pul-" + drawn(LOWER_HEX, 40, 158)
    add(_s("pulumi", f"PULUMI_ACCESS_TOKEN={pulumi}", pulumi[4:]))
    add(_s("pulumi", f"pulumi login with {pulumi}", pulumi[4:]))
    claims = {"iat": 1767225600.0, "url": "https://sentry.io", "region_url": "https://us.sentry.io"}
    org = base64.b64encode(json.dumps({**claims, "org": "acme"}).encode()).decode().rstrip("=")
    sentry = f"sntrys_{org}_{drawn(B64, 43, 159)}"
    add(_s("sentry", f"SENTRY_AUTH_TOKEN={sentry}", sentry[-43:]))
    user = "sntryu_" + drawn(LOWER_HEX, 64, 160)
    add(_s("sentry", f"sentry-cli --auth-token {user} releases list", user[7:]))
    terraform = drawn(LOWER_HEX + "ghijklmnop", 14, 161) + ".atlasv1." + drawn(B62, 67, 162)
    block = f'credentials "app.terraform.io" {{ token = "{terraform}" }}'
    add(_s("terraform-cloud", block, terraform[23:]))
    add(_s("terraform-cloud", f"TF_TOKEN_app_terraform_io={terraform}", terraform[23:]))
    claims = {"u": "acme", "a": drawn(B62, 25, 163)}
    mapbox = "sk." + _b64url(claims) + "." + drawn(B62 + "-_", 22, 164)
    add(_s("mapbox", f"MAPBOX_SECRET_TOKEN={mapbox}", mapbox.rsplit(".", 1)[1]))
    add(_s("mapbox", f"mapbox token {mapbox} for the tiles", mapbox.rsplit(".", 1)[1]))
    add(_s("quote-in-secret", 'postgres://admin:pa"ss-W0rd-9@db.internal/app', "ss-W0rd-9"))
    add(_s("quote-in-secret", 'admin:\n  password: pa"ss-Quoted-7\n', "ss-Quoted-7"))
    add(_s("quote-in-secret", 'DB_PASSWORD="ab\\"cd-Escaped-5"', "cd-Escaped-5"))
    add(_s("quote-in-secret", json.dumps({"password": 'ab"cd-InJson-3'}), "cd-InJson-3"))
    return out


def _more_tokens() -> list[Sample]:
    """Further prefixed tokens of widely used services."""
    out: list[Sample] = []
    add = out.append
    for family, token, text in (
        ("xai", "xai-" + drawn(B62, 80, 170), "XAI_API_KEY={}"),
        ("perplexity", "pplx-" + drawn(B62, 48, 171), "PERPLEXITY_API_KEY {}"),
        ("nvidia", "nvapi-" + drawn(B62 + "-_", 64, 172), "nvidia key {}"),
        (
            "docker-hub",
            "dckr_pat_" + drawn(B62 + "-_", 27, 173),
            "docker login -u ci --password-stdin <<< {}",
        ),
        (
            "tailscale",
            "tskey-auth-" + drawn(B62, 17, 174) + "-" + drawn(B62, 32, 175),
            "tailscale up --authkey={}",
        ),
        (
            "langsmith",
            "lsv2_pt_" + drawn(LOWER_HEX, 32, 176) + "_" + drawn(LOWER_HEX, 10, 177),
            "LANGSMITH_API_KEY={}",
        ),
        ("1password", "ops_eyJ" + drawn(B64, 260, 178), "OP_SERVICE_ACCOUNT_TOKEN={}"),
        ("figma", "figd_" + drawn(B62 + "-_", 40, 179), "figma token {}"),
        ("notion", "ntn_" + drawn(B62, 46, 180), "NOTION_TOKEN={}"),
        ("rubygems", "rubygems_" + drawn(LOWER_HEX, 48, 182), "GEM_HOST_API_KEY: {}"),
        ("bitbucket", "ATBB" + drawn(B62, 32, 183), "bitbucket app password {}"),
        ("google-refresh", "1//0" + drawn(B62 + "-_", 99, 184), '"refresh_token": "{}"'),
        ("fly", "FlyV1 fm2_" + drawn(B64, 120, 185), "FLY_API_TOKEN='{}'"),
        (
            "brevo",
            "xkeysib-" + drawn(LOWER_HEX, 64, 186) + "-" + drawn(B62, 16, 187),
            "brevo key {}",
        ),
    ):
        add(_s(family, text.format(token), token[-20:]))
    return out


def _unlabelled() -> list[Sample]:
    """Tokens with no prefix and no key word that names a secret: only their randomness
    gives them away."""
    out: list[Sample] = []
    add = out.append
    token = drawn(B62, 32, 190)
    add(_s("unlabelled-token", f"here is the one you asked for: {token}", token))
    token = drawn(B62, 40, 191)
    add(_s("unlabelled-token", token, token))
    token = drawn(B62 + "-_", 40, 192)
    add(_s("unlabelled-token", f"Cookie: sid={token}; Path=/; HttpOnly", token))
    token = drawn(B64, 44, 193)
    add(_s("unlabelled-token", f"CF_ORIGIN={token}", token))
    token = drawn(B62, 28, 194)
    add(_s("unlabelled-token", f"mistral = Mistral({token!r})", token))
    token = drawn(B62, 48, 195)
    add(_s("unlabelled-token", f"POST https://hooks.example.invalid/trigger/{token}", token))
    return out


def _samples() -> list[Sample]:
    """Every sample, family by family, in a fixed order."""
    return [
        *_provider_keys(),
        *_service_tokens(),
        *_platform_tokens(),
        *_protocol_tokens(),
        *_url_credentials(),
        *_assignments(),
        *_private_keys(),
        *_command_lines(),
        *_issue_files(),
        *_issue_tokens(),
        *_more_tokens(),
        *_unlabelled(),
    ]


SAMPLES: tuple[Sample, ...] = tuple(_samples())
FAMILIES = frozenset(sample.family for sample in SAMPLES)
#: The families issue 29 found leaking, every one of whose samples must be caught.
ISSUE_FAMILIES = frozenset(
    {
        "mysql-password",
        "sshpass",
        "netrc",
        "groq",
        "authorization-token",
        "docker-auth",
        "aws-cli-prompt",
        "putty-key",
        "pkcs8-body",
        "password-next-line",
        "passphrase-words",
        "replicate",
        "supabase",
        "planetscale",
        "pulumi",
        "sentry",
        "terraform-cloud",
        "mapbox",
        "quote-in-secret",
    }
)
ISSUE_SAMPLES = tuple(sample for sample in SAMPLES if sample.family in ISSUE_FAMILIES)

#: Samples that are themselves a valid task name (what a careless `--task "$TOKEN"` sends).
TASK_TOKENS: tuple[str, ...] = (
    "ghp_" + cycle(B62, 36, 70),
    "sk-ant-api03-" + cycle(B62, 40, 71),
    "AKIA" + cycle(UPPER, 16, 72),
    "glpat-" + cycle(B62, 20, 73),
    "npm_" + cycle(B62, 36, 74),
    "hf_" + cycle(B62, 34, 75),
    "xoxb-2048123456789-" + cycle(B62, 24, 76),
    "dapi" + cycle(LOWER_HEX, 32, 77),
)


def leaks_in(text: str, samples: tuple[Sample, ...] | list[Sample] = SAMPLES) -> list[str]:
    """The families whose secret material appears in `text`, raw or JSON-escaped."""
    found = []
    for sample in samples:
        for leak in sample.leaks:
            escaped = json.dumps(leak)[1:-1]
            if leak in text or escaped in text:
                found.append(sample.family)
                break
    return found


def _generated() -> str:
    """Identifiers and encoded data the way tools print them, derived from counters."""
    rows = []
    for n in range(12):
        digest = hashlib.sha1(str(n).encode()).hexdigest()
        rows.append(f"commit {digest}")
        rows.append(f"sha256:{hashlib.sha256(digest.encode()).hexdigest()}")
        rows.append(f"id {uuid.uuid5(uuid.NAMESPACE_URL, digest)}")
        blob = base64.b64encode(hashlib.sha512(digest.encode()).digest()).decode()
        rows.append(f"data: {blob}")
    return "\n".join(rows)


#: Text that holds no secret, one sample a line: prose, identifiers and hashes, URLs without
#: credentials, configuration, code, commit messages, paths, lock-file digests (ordinary.txt),
#: then identifiers derived from counters.
ORDINARY: tuple[str, ...] = tuple(
    line
    for line in [
        *(Path(__file__).parent / "ordinary.txt").read_text(encoding="utf-8").split("\n"),
        *_generated().split("\n"),
    ]
    if line.strip()
)
