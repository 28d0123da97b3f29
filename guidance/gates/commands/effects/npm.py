"""Effects of the JavaScript package managers: npm, pnpm, yarn, bun, npx."""

from __future__ import annotations

from cf_guidance.decision import ASK
from cf_guidance.gates.commands.effects import CHANGE, CREDENTIAL, EXPOSE, GRANT, LOCAL, SUPPLY, Entry, Parsed, Table
from cf_guidance.gates.commands.effects.packages import config_sets, indexes, specs_from

TYPE_CHECKING = False
if TYPE_CHECKING:
    from collections.abc import Callable

    from cf_guidance.shell.model import Command, ShellAnalysis

    Test = Callable[[Parsed, Command, ShellAnalysis | None], str]


_NPM_SOURCE_KEYS = ("registry", "npmregistryserver", "strict-ssl", "enablestrictssl", "unsafehttpwhitelist", "ca", "cafile",
                    "npmscopes", "npmauthtoken", "always-auth", "ignore-scripts", "https-proxy", "proxy")
_INSTALL = "install|i|in|ins|inst|add|update|up|upgrade|ci|exec|x|dlx"


def _access_public(parsed: Parsed, cmd: Command, analysis: ShellAnalysis | None) -> str:
    words = [w.lower() for w in parsed.words[1:]]
    if "public" in words or "status=public" in words or any(v.lower() == "public" for v in parsed.args.value("--access")):
        return f"{cmd.program} makes the package public"
    return ""


_NPM = Table(
    ("npm", "pnpm", "yarn", "bun", "npx"),
    (
        Entry(_INSTALL, SUPPLY, "SUP001", test=specs_from(1, npm=True, values=("--package", "-p")), verdict=ASK,
              block=("npm install git+https://github.com/someone/left-pad.git", "npm install https://example.com/x-1.0.0.tgz",
                     "npm i github:someone/helper", "pnpm add someone/helper", "yarn add git+ssh://git@github.com:org/x.git",
                     "bun add https://files.example.com/pkg.tgz"),
              allow=("npm install lodash", "npm i -D @types/node@20", "pnpm add ./packages/ui", "yarn add react@^18",
                     "npm install", "npm ci", "npm install file:../shared")),
        Entry(_INSTALL, SUPPLY, "SUP002", test=indexes("--registry"), verdict=ASK,
              block=("npm install left-pad --registry http://10.0.0.5:4873", "pnpm add zod --registry=https://npm.example-mirror.io"),
              allow=("npm install zod --registry https://registry.npmjs.org", "npm install zod --registry http://localhost:4873")),
        Entry("config|set", SUPPLY, "SUP003", test=config_sets(*_NPM_SOURCE_KEYS, harmless=("true",)), verdict=ASK,
              block=("npm config set registry https://npm.evil.example/", "npm set @acme:registry http://10.1.2.3:4873",
                     "npm config set strict-ssl false", "yarn config set npmRegistryServer https://mirror.example",
                     "pnpm config set registry http://mirror.local.example"),
              allow=("npm config get registry", "npm config set registry https://registry.npmjs.org/", "npm config set init-author-name Dev",
                     "npm config set strict-ssl true")),
        Entry("publish|npm", CHANGE, "EFF001", "{program} publish uploads the package to the registry",
              test=lambda parsed, cmd, analysis: "=" if "publish" in parsed.words[:2] else "", unless=("--dry-run",),
              block=("npm publish", "pnpm publish --access public", "yarn npm publish"), allow=("npm pack", "npm publish --dry-run")),
        Entry("dist-tag|deprecate|star|unstar", CHANGE, "EFF001", "{program} changes the package on the registry",
              unless=("--dry-run",), test=lambda parsed, cmd, analysis: "" if parsed.words[1:2] == ["ls"] else "=",
              block=("npm dist-tag add pkg@1.2.0 latest", "npm deprecate pkg@1 'use v2'"), allow=("npm dist-tag ls pkg",)),
        Entry("access", EXPOSE, "EFF007", test=_access_public, block=("npm access set status=public @acme/internal",), allow=()),
        Entry("owner|team|org", GRANT, "REP005", "{program} gives someone rights on the package or organisation",
              test=lambda parsed, cmd, analysis: "=" if parsed.words[1:2] in (["add"], ["set"]) else "",
              block=("npm owner add someone pkg",), allow=("npm owner ls pkg",)),
        Entry("token", CREDENTIAL, "EFF004", "{program} token create prints a new publish token",
              test=lambda parsed, cmd, analysis: "=" if parsed.words[1:2] == ["create"] else "",
              block=("npm token create --read-only",), allow=("npm token list",)),
        Entry("", LOCAL, allow=("npm test", "npm run build", "pnpm -r build", "yarn", "npm audit", "npm ls", "npm login")),
    ),
    options=("--registry", "--prefix", "-w", "--workspace", "--tag", "--otp", "--scope", "--access", "--cache", "-C", "--dir",
             "--filter", "-F", "--package", "-p"),
    instead="check it with `{program} publish --dry-run` or `npm pack` and let the user publish"
)


TABLES = (_NPM,)
