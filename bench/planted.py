"""Planted secrets: values that must never appear in any output, and a source file that holds
them. Shared by tests/test_secrets.py and bench/bench_hardening.py."""

from __future__ import annotations

PEM = "-----BEGIN RSA PRIVATE KEY-----"
SECRETS = {
    "pem_body": "MIIEpAIBAAKCAQEAsecretpembodyline0123456789",
    "aws": "AKIAIOSFODNN7EXAMPLE",
    "token": "tok_live_51HxQzQ2eZvKYlo2C0123456789",
    "password": "hunter2-correct-horse",
    "github": "ghp_" + "a1B2c3D4e5F6g7H8i9J0k1L2m3N4o5P6q7R8",
    "dotenv": "DOTENV_SUPER_SECRET_VALUE",
    "id_rsa": "IDRSA_PRIVATE_MATERIAL",
    "aws_credentials": "AWS_CREDENTIALS_FILE_SECRET",
    "outside": "OUTSIDE_ROOT_MARKER",
    "excluded": "EXCLUDED_FILE_MARKER",
}
CONFIG_PY = f'''"""Service configuration: credentials loading for the payment client."""

SIGNING_KEY = """{PEM}
{SECRETS["pem_body"]}
-----END RSA PRIVATE KEY-----"""


class PaymentClientConfig:
    def load_credentials(self):
        aws_access_key_id = "{SECRETS["aws"]}"
        api_token = "{SECRETS["token"]}"
        db_password = "{SECRETS["password"]}"
        github = "{SECRETS["github"]}"
        return connect_payment_client(aws_access_key_id, api_token, db_password, github)


def connect_payment_client(key, token, password, github):
    return PaymentClientConfig()
'''
