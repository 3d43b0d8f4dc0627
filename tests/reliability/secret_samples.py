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
    """Key = value assignments, short and quoted values included."""
    out: list[Sample] = []
    add = out.append
    for line in (
        "password=hunter2x",
        "PASSWORD: 'tiny'",
        'db_password = "correct horse battery"',
        "passwd=abc12",
        "pwd=Zx9!q",
        "client_secret: s3cr3tvalue",
        "token=abc123",
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


ORDINARY: tuple[str, ...] = tuple(
    line
    for block in (
        # prose
        """The ledger keeps every record the session writes, in the order it was written.
A rule is a statement the project holds itself to, with its rationale beside it.
Rotate the signing key every ninety days and record who rotated it.
The token budget of a compiled context is set per profile, not per session.
Passwords are never stored in the repository; they live in the secret manager.
Every API key is scoped to one service and revoked when the service is retired.
Use the access token from the environment, never one pasted into a file.
A secret is anything whose disclosure would let a stranger act as the project.
The key insight is that the index is rebuilt only when a layer file changes.
See the runbook for how to reset a forgotten password through the portal.
The primary key of the table is the record id; the secondary key is the task.
Tokens are counted with the tokenizer of the model the profile names.
Passing tests are necessary but not sufficient for a plan to be accepted.
The authorization header is set by the client library, not by our code.
Keys in the YAML map are case-sensitive; values are strings unless quoted otherwise.
We bypass the cache only when the layer fingerprint has changed.
The compass of this document is the list of decisions at the top.
A passphrase protects the deploy key on the build machine.
Secrets management is out of scope for this milestone.
The token: a short word that the tokenizer keeps whole.
Nobody should paste a password: not in an issue, not in a commit message.
The session ends when the client closes its end of the pipe.
When in doubt, ask for review before merging the change.
Our keyboard shortcuts follow the platform conventions.
The monkey-patched clock makes the tests independent of the wall time.
Risk assessment for the migration is attached to the plan record.
Masking the output is not the same as redacting it.
The desk check found three issues in the diff.
Reading a FIFO would block forever, so only regular files are read.
The compiler selects the rules that govern the paths a change touches.
A decision record names the question, the options and the reason for the choice.
Failed attempts are kept so that the next session does not repeat them.
The report lists open items first and finished ones after them.
An advisor is consulted when the plan asks for an independent review.
The store is append-only: a record is never rewritten, only superseded.
The MCP server answers one JSON value per line on its standard output.
Logs go to standard error so that the protocol stream stays clean.
A symlink inside the layer is reported as a diagnostic and not followed.
Every file is read with a size cap that depends on its kind.
The HTTP server binds to the loopback interface unless told otherwise.
Requests from a foreign origin are refused before the body is read.
A body larger than one mebibyte is answered with status 413.
The index is rebuilt when the git index or a tracked layer file changes.
The checkpoint file records where the last session stopped.
Handover notes describe the state of a task for the next person.
Each profile sets the budget, the kinds it includes and their weights.
Relevance is computed from the paths, the tags and the dependencies.
Objects are listed in natural order of their identity.
Ties are broken by code point so that the order never depends on chance.
A benchmark run prints the median of alternating samples.
The floor of a benchmark is the cheapest way to do the same work.
Start-up time matters because the CLI runs inside editor hooks.
The registry is built once per process and verified before first use.
Capabilities are declared once and projected onto every surface.
An unknown flag is a usage error with exit code 2.
A missing object is reported with exit code 12.
Refusals and internal failures share exit code 13.
The contract is unmet when the layer cannot be read at all.
Users can rotate their credentials from the account settings page.
The review found no issue with key handling in the new module.
We store only the hash of each session token, never the token itself.
Use a password manager; do not reuse a password across services.
The design keeps secrets out of logs by redacting every line.
An access key without a secret key is useless on its own.
Private keys stay on the machine that generated them.
Public keys and certificates can be committed without risk.
Two reviewers must approve any change to the deployment keys.
The API returns 401 when the token has expired.
The key rotation job runs every night at two.""",
        # identifiers, hashes and encoded data
        """commit 9fceb02d0ae598e95dc970b74767f19372d61af8
Merge: 1d7e4c2 a3f0b9e
sha256: e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855
md5 d41d8cd98f00b204e9800998ecf8427e
request id 123e4567-e89b-12d3-a456-426614174000
uuid = "550e8400-e29b-41d4-a716-446655440000"
object id 3f786850e387550fdab836ed7e6dc881de23001b
blob 8ab686eafeb1f44702738c8b0f24f2567c36da6d
tree 4b825dc642cb6eb9a060e54bf8d69288fbee4904
image: r.invalid/app@sha256:2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae
data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==
integrity: sha384-oqVuAfXRKap7fdgcCY5uykM6+R9GqQ8K/uxy9rx7HNQlGYl1kPzQho1wx4JwY8wC
font: data:font/woff2;base64,d09GMgABAAAAAAIkAAoAAAAABZgAAAHaAAEAAAAAAAAAAAAAAAAAAAAAAAAAAAAA
etag "33a64df551425fcc55e4d42a148795d9f25f89d4"
version 2.14.4+build.20261201
checksum: 0x7f3a9c21
gpg fingerprint 4AEE18F83AFDEB23 (public)
ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl user@host
ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 deploy@ci (a public key)
-----BEGIN CERTIFICATE-----
MIIDdzCCAl+gAwIBAgIEAgAAuTANBgkqhkiG9w0BAQUFADBaMQswCQYDVQQGEwJJ
-----END CERTIFICATE-----
-----BEGIN PUBLIC KEY-----
MFkwEwYHKoZIzj0CAQYIKoZIzj0DAQcDQgAEEVs/o5+uQbTjL3chynL4wXgUg2R9
-----END PUBLIC KEY-----
pk_live_51HqLyjWDarjtT1zdp7dc (a publishable key is public)
AKIAIOSFODNN7 is too short to be a key id
run 2026-12-01T21:30:00Z finished in 418 ms
id: majordomus.scope-integrity
uri: majordomus://rule/rules/project/scope-integrity.v1.md
task-implement-redaction-for-egress-paths-and-logs
risk-assessment-of-the-connection-pool-settings""",
        # URLs without credentials
        """https://example.invalid/docs/getting-started?lang=en#install
https://github.com/pydantic/pydantic/blob/main/docs/index.md
git@github.com:team/repository.git
ssh://git@git.example.invalid:2222/team/repo.git
http://localhost:8080/api/v1/objects?kind=rule&limit=50
http://[::1]:8080/api/v1/live
https://api.example.invalid/v2/users/42/keys?page=2
mailto:maintainers@example.invalid
https://example.invalid/search?q=password+reset&sort=asc
https://example.invalid/a?b=c:d@e
file:///usr/share/doc/python3/README
postgres://db.internal:5432/app
redis://cache:6379/0
https://user@host.example.invalid/path
https://hooks.example.invalid/services/notify
wss://stream.example.invalid/socket?channel=builds
ftp://mirror.example.invalid/pub/releases/
https://pypi.org/project/pydantic/
https://registry.npmjs.org/left-pad
https://example.invalid/token-exchange/docs""",
        # configuration without secrets
        """[server]
host = 127.0.0.1
port = 8080
workers = 4
timeout_seconds = 30
log_level = info
max_tokens = 4096
token_limit = 2000
key_prefix = cache-
password_min_length = 12
password_policy = strict
secret_store = vault
api_version = v2
access_log = true
[database]
name = app
pool_size = 10
user = app
password = ${DB_PASSWORD}
secret: {{ .Values.secret }}
token: "<your token here>"
api_key: null
password: null
token = None
secret_key = os.environ["SECRET_KEY"]
password = getpass.getpass()
token = request.headers.get("Authorization")
api_key = settings.API_KEY
password: str
token: Optional[str] = None
client_secret: SecretStr
PWD=/home/ada/project
HOME=/home/ada
PATH=/usr/local/bin:/usr/bin:/bin
LANG=C.UTF-8
EDITOR=vim
retries: 3
backoff: exponential
enabled: true
features: [search, compile, explain]
timezone: UTC
encoding: utf-8
keys: [id, version, kind]
tokenizer: cl100k
passthrough: false
secrets_dir: /run/secrets
key_file: /etc/ssl/private/server.key
password_file: /run/secrets/db_password
token_url: https://auth.example.invalid/token""",
        # code
        """def authenticate(user: str, password: str) -> bool:
    return check(user, password)
token = next(tokens)
key = (record.task, record.id)
secret = load_secret(name)
for key, value in mapping.items():
    if key == "password":
        continue
headers = {"Accept": "application/json"}
parser.add_argument("--token", help="the API token to use")
password_hash = bcrypt.hashpw(password.encode(), salt)
assert token.kind == "word"
self.key = key
api_key = None
if not secret:
    raise MissingSecret("set SECRET_KEY in the environment")
const token = await getToken();
let password = prompt("Password:");
$password = $_POST['password'];
export PATH="$HOME/.local/bin:$PATH"
git log --oneline -n 20
docker run -p 8080:8080 app:latest
kubectl get secrets -n production
curl https://example.invalid/api/v1/objects
curl -u "$USER:$PASSWORD" https://example.invalid
ssh -i ~/.ssh/id_ed25519 deploy@host
openssl genrsa -out key.pem 2048
gpg --export-secret-keys --armor > backup.asc
python -m pytest -q -x
grep -ri password src/
SELECT id, name FROM users WHERE token_expires < now();
UPDATE sessions SET token = NULL WHERE expired;
{"kind": "rule", "title": "Keep the key order", "tags": ["json"]}
{"token_count": 1234, "model": "small"}
{"password_reset": true}
{"count": 3, "objects": []}
x = {"a": 1, "b": [1, 2, 3]}
print(f"{key}={value}")
return {"secret": secret_ref}
log.info("token refreshed for %s", user)
raise ValueError(f"bad key: {key!r}")
match = re.compile(r"[A-Za-z0-9]{16,}")
hash = hashlib.sha256(data).hexdigest()
encoded = base64.b64encode(raw).decode()
uuid4()
time.sleep(0)
values = sorted(set(keys))
counts[token] += 1
if password is None: return
passwords = load_rules("passwords.yaml")
tokens.append(token)
keystore.load(path)
import os
from pathlib import Path
root = Path(__file__).resolve().parent
with open(path, encoding="utf-8") as handle:
    data = json.load(handle)
result = subprocess.run(["git", "status"], capture_output=True, check=True)
class TokenBucket:
    def __init__(self, rate: float, capacity: int) -> None:
        self.tokens = capacity
def refill(self) -> None:
    self.tokens = min(self.capacity, self.tokens + self.rate)
if self.tokens < 1:
    return False
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
    token := r.Header.Get("Authorization")
    if token == "" {
        http.Error(w, "unauthorized", http.StatusUnauthorized)
fn main() -> Result<(), Box<dyn Error>> {
    let key = std::env::var("API_KEY")?;
export function hashPassword(password: string): Promise<string> {
  return bcrypt.hash(password, 12);
const secretName = `${prefix}-db`;
app.use(express.json({ limit: "1mb" }));
router.get("/api/v1/objects/:kind/:id", handler);
SELECT count(*) FROM records WHERE task = ? AND kind = ?;
CREATE INDEX records_task ON records (task, recorded_at);
ALTER TABLE users ADD COLUMN password_changed_at TIMESTAMP;
for f in $(git ls-files '*.md'); do wc -l "$f"; done
find . -name '*.pyc' -delete
tar czf backup.tar.gz .ai/
make test PYTHON=python3.11
pip install -e '.[dev]'
npm ci && npm run build
echo "$GITHUB_SHA" > VERSION
test -f .env || cp .env.example .env
chmod 600 ~/.ssh/id_ed25519
set -euo pipefail
trap cleanup EXIT
jobs:
  test:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@v4
      - run: python -m pytest -q
        env:
          API_TOKEN: ${{ secrets.API_TOKEN }}
          PASSWORD: ${{ secrets.DB_PASSWORD }}
services:
  db:
    image: postgres:16
    environment:
      POSTGRES_DB: app
      POSTGRES_PASSWORD_FILE: /run/secrets/db_password
    ports:
      - "5432:5432"
resource "aws_s3_bucket" "logs" {
  bucket = "team-logs"
}
variable "db_password" {
  sensitive = true
}
<input type="password" name="password" autocomplete="current-password">
<meta name="csrf-token" content="{{ csrf_token() }}">
# TODO: move the key loading into the settings module
// the token is refreshed five minutes before it expires
/* passwords are compared in constant time */""",
        # commit messages
        """Fix off-by-one in the pager when the last page is exactly full
Merge pull request #412 from ada/fix-token-refresh
Revert "Use the new password hashing parameters" (reverts 1a2b3c4d)
Bump pydantic from 2.7.1 to 2.8.0 in /requirements
feat(auth): rotate the session key on every login
fix(api): return 401 instead of 500 when the bearer header is empty
chore: regenerate docs/generated after the schema change
refactor: rename parseISO8601Timestamp to parse_timestamp
docs: explain where the secret manager keeps the deploy key
test: cover the OAuth2 callback with a fake provider
ci: pin actions/checkout@v4 and actions/setup-python@v5
perf: cache the compiled regexes of the redactor
Squash the three WIP commits into one before the release
Add useOAuth2Callback hook and its tests
Drop Python 3.10 from the test matrix
Update CHANGELOG for v2.14.4 (see #398, #401, #405)
Handle HTTP2ServerPush being disabled on older proxies
Move getUserAccountSettingsV2 behind the feature flag
Remove the hard-coded password from the fixtures, use the vault
Store only the SHA-256 of each API token (closes #377)
Signed-off-by: Ada Lovelace <ada@example.invalid>
Co-authored-by: Grace Hopper <grace@example.invalid>
Change-Id: I8f3e2d1c0b9a8f7e6d5c4b3a2f1e0d9c8b7a6f5e
Reviewed-on: https://review.example.invalid/c/project/+/48213
(cherry picked from commit 5d41402abc4b2a76b9719d911017c592)""",
        # paths
        """src/main/java/com/example/account/UserAccountService2.java
src/components/Base64UrlEncoder.test.tsx
internal/http2/server_push_test.go
app/Http/Controllers/OAuth2Controller.php
lib/active_record/connection_adapters/postgresql_adapter.rb
dist/assets/index-DiwrgTda.js
static/js/main.3f9a2c1b.chunk.js
~/.config/gcloud/application_default_credentials.json
/var/lib/docker/overlay2/l/XQ4G7KQ2V3NJ5BZ6P7D2EYHNMA/diff
/home/ada/Projects/MyApp2/build/outputs/apk/debug/app-debug.apk
C:\\Users\\ada\\AppData\\Local\\Programs\\Python\\Python311\\python.exe
.github/workflows/release-on-tag.yml
docs/adr/0007-use-sqlite-for-the-export.md
tests/fixtures/x509/ValidCertificatePathTest1EE.crt
node_modules/@babel/plugin-transform-async-to-generator/lib/index.js
vendor/golang.org/x/crypto/chacha20poly1305/chacha20poly1305_amd64.s
.ai/repo/rules/project/scope-integrity.v1.md
/usr/lib/python3/dist-packages/cryptography/hazmat/primitives/kdf/pbkdf2.py
build/intermediates/javac/debug/classes/com/example/R$drawable.class
k8s/overlays/production/kustomization.yaml""",
        # lock files, sums and digests
        """github.com/pmezard/go-difflib v1.0.0 h1:4DBwDE0NGyQoBHbLQYPwSUPoCMWR5BEzIk/f1lZbAQM=
github.com/stretchr/testify v1.9.0/go.mod h1:r2ic/lqez/lEtzL7wO/rwa5dbSLXVDPFyf8C91i36aY=
"integrity": "sha384-Nd7S0ch1Q3J7O5Dv3vYbUg4Yv0o9wQkVXm6m5t1nX7y4ZQ2D9lq8E3fH6xW0cR1jA5bK8pN",
"resolved": "https://registry.npmjs.org/left-pad/-/left-pad-1.3.0.tgz",
requests==2.32.3 --hash=sha256:70761cfe03c773ceb22aa2f671b4757976145175cdfca038c02654d061d6dcc6
checksum = "c2f0e1ba2b7e4a1a0c9e0f4a9e8b0f0d6f3c2b1a0e9d8c7b6a5f4e3d2c1b0a99"
oid sha256:4d7a214614ab2935c943f9e0ff69d22eadbb8f32b1258daaa5e2ca24d17e2393
Digest: sha256:a3ed95caeb02ffe68cdd9fd84406680ae93d633cb16422d00e8a7c22955b46d4
X-Request-Id: 7f3c2e1a-9b8d-4c6e-a5f4-3d2c1b0a9e8f
trace_id=4bf92f3577b34da6a3ce929d0e0e4736 span_id=00f067aa0ba902b7""",
        # code with identifiers that mix case and digits
        """const handler = useOAuth2Callback(provider, { redirectUri });
func NewHTTP2ServerPushHandler(cfg *Config) *Handler {
assert parseISO8601Timestamp("2026-12-01T21:30:00Z").year == 2026
val encoder = Base64UrlEncoderV2(padding = false)
class X509CertificateChainValidator(private val store: KeyStore)
export const getUserAccountSettingsV2 = async (id: string) => api.get(`/v2/${id}`);
if isinstance(key, Ed25519PrivateKey): return key.public_key()
from cryptography.hazmat.primitives.asymmetric.x25519 import X25519PrivateKey
self.assertEqual(sha3_256(b"abc").hexdigest()[:8], "3a985da7")
let s3Client = S3Client(region: "eu-west-1", credentials: .fromEnvironment)
WebSocket2FrameDecoderTest::testFragmentedPingFrame
@pytest.mark.parametrize("mode", ["AES256GCM", "ChaCha20Poly1305"])
mockk<AwsS3ObjectStorageV2Client>(relaxed = true)
ProtocolBuffers3JsonFormatPrinter.print(message)
dict(utf8mb4_0900_ai_ci="collation", InnoDB="engine")""",
        _generated(),
    )
    for line in block.split("\n")
    if line.strip()
)
