#!/usr/bin/env bash
# mypy --strict over the package as it is installed: `cf_guidance` is the guidance/ folder with
# hooks/ and installer/ inside it (pyproject's package-dir). mypy cannot follow the editable
# install's import hook, so this lays the package out as links under .typecheck/ and checks that.
set -euo pipefail
cd "$(dirname "$0")/.."
python="${1:-.venv/bin/python}"
tree=.typecheck/cf_guidance
rm -rf .typecheck
mkdir -p "$tree"
for entry in guidance/*; do
    case "$(basename "$entry")" in __pycache__) continue ;; esac
    ln -s "$PWD/$entry" "$tree/"
done
ln -s "$PWD/hooks" "$tree/hooks"
ln -s "$PWD/installer" "$tree/installer"
exec "$python" -m mypy
