from __future__ import annotations

import pytest

from cf_guidance.gates.commands.cloud import analyse
from cf_guidance.shell.model import Command


@pytest.mark.parametrize(
    ("line", "codes"),
    [
        ("kubectl delete ns a", ["DST040"]),
        ("kubectl -n x delete pod a", ["DST041"]),
        ("kubectl delete pod a --all-namespaces", ["DST040"]),
        ("kubectl get ns", []),
        ("helm uninstall web", ["DST041"]),
        ("terraform destroy", ["DST042"]),
        ("terraform apply -destroy", ["DST042"]),
        ("terraform plan -destroy", []),
        ("terraform state rm aws_s3_bucket.b", ["DST044"]),
        ("aws s3 rm s3://b/k", ["DST044"]),
        ("aws s3 rm s3://b --recursive", ["DST043"]),
        ("aws --profile p dynamodb delete-table --table-name t", ["DST044"]),
        ("aws s3 ls", []),
        ("gcloud projects delete p", ["DST045"]),
        ("gcloud sql instances delete db", ["DST044"]),
        ("az group delete -n g", ["DST045"]),
        ("docker volume rm v", ["DST046"]),
        ("podman system prune -a", ["DST047"]),
        ("docker system prune", []),
        ("parted /dev/sda print", []),
        ("sgdisk --zap-all /dev/sda", ["DST050"]),
    ],
)
def test_analyse(line: str, codes: list[str]) -> None:
    assert [code for code, _ in analyse(Command(line.split()))] == codes
