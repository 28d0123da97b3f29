"""Wrappers are stripped and recorded; launchers are followed into the code they run."""

from __future__ import annotations

import pytest

from cf_guidance.shell import analyze

WRAPPERS = [
    ("sudo rm -rf /", ["rm", "-rf", "/"], ["sudo"], []),
    ("sudo -u root -E rm a", ["rm", "a"], ["sudo"], []),
    ("sudo -uroot -- rm a", ["rm", "a"], ["sudo"], []),
    ("sudo --user=root rm a", ["rm", "a"], ["sudo"], []),
    ("doas -u root rm a", ["rm", "a"], ["doas"], []),
    ("env rm a", ["rm", "a"], ["env"], []),
    ("env -i PATH=/bin rm a", ["rm", "a"], ["env"], [("PATH", "/bin")]),
    ("env -u HOME -- rm a", ["rm", "a"], ["env"], []),
    ("env -S 'rm -rf /'", ["rm", "-rf", "/"], ["env"], []),
    ("env -S'rm -rf /tmp'", ["rm", "-rf", "/tmp"], ["env"], []),
    ("env -iS 'rm -rf /'", ["rm", "-rf", "/"], ["env"], []),
    ("env --split-string='rm a'", ["rm", "a"], ["env"], []),
    ("command rm a", ["rm", "a"], ["command"], []),
    ("command -p rm a", ["rm", "a"], ["command"], []),
    ("builtin cd /", ["cd", "/"], ["builtin"], []),
    ("exec rm a", ["rm", "a"], ["exec"], []),
    ("exec -a name rm a", ["rm", "a"], ["exec"], []),
    ("nohup rm a &", ["rm", "a"], ["nohup"], []),
    ("nice -n 10 rm a", ["rm", "a"], ["nice"], []),
    ("nice -10 rm a", ["rm", "a"], ["nice"], []),
    ("nice --adjustment=5 rm a", ["rm", "a"], ["nice"], []),
    ("ionice -c3 rm a", ["rm", "a"], ["ionice"], []),
    ("ionice -c 2 -n 7 rm a", ["rm", "a"], ["ionice"], []),
    ("timeout 10 rm a", ["rm", "a"], ["timeout"], []),
    ("timeout -s KILL -k 5 10s rm a", ["rm", "a"], ["timeout"], []),
    ("timeout --signal=TERM 1m rm a", ["rm", "a"], ["timeout"], []),
    ("/usr/bin/time -v rm a", ["rm", "a"], ["time"], []),
    ("time rm a", ["rm", "a"], ["time"], []),
    ("stdbuf -oL rm a", ["rm", "a"], ["stdbuf"], []),
    ("stdbuf -o L rm a", ["rm", "a"], ["stdbuf"], []),
    ("setsid -f rm a", ["rm", "a"], ["setsid"], []),
    ("flock /tmp/lock rm a", ["rm", "a"], ["flock"], []),
    ("flock -w 5 /tmp/lock rm a", ["rm", "a"], ["flock"], []),
    ("caffeinate -i rm a", ["rm", "a"], ["caffeinate"], []),
    ("unbuffer rm a", ["rm", "a"], ["unbuffer"], []),
    ("torsocks curl x", ["curl", "x"], ["torsocks"], []),
    ("proxychains4 -q curl x", ["curl", "x"], ["proxychains4"], []),
    ("FOO=1 BAR=2 rm a", ["rm", "a"], [], [("FOO", "1"), ("BAR", "2")]),
    ("FOO+=x rm a", ["rm", "a"], [], [("FOO", "x")]),
    ('FOO="a b" rm a', ["rm", "a"], [], [("FOO", "a b")]),
    ("sudo FOO=1 rm a", ["rm", "a"], ["sudo"], [("FOO", "1")]),
    ("sudo env nice -n1 nohup timeout 5 /bin/rm a", ["/bin/rm", "a"], ["sudo", "env", "nice", "nohup", "timeout"], []),
    ("\\rm a", ["rm", "a"], [], []),
    ("busybox rm a", ["rm", "a"], ["busybox"], []),
    ("runuser -u app -- rm a", ["rm", "a"], ["runuser"], []),
    ("uv run --with requests rm a", ["rm", "a"], ["uv"], []),
    ("poetry run rm a", ["rm", "a"], ["poetry"], []),
    ("pipenv run rm a", ["rm", "a"], ["pipenv"], []),
    ("conda run -n base rm a", ["rm", "a"], ["conda"], []),
    ("npx --yes rm a", ["rm", "a"], ["npx"], []),
    ("pnpm exec rm a", ["rm", "a"], ["pnpm"], []),
    ("bundle exec rake db:drop", ["rake", "db:drop"], ["bundle"], []),
    ("bin/bundle exec --gemfile=G rails db:reset", ["rails", "db:reset"], ["bundle"], []),
    # version managers and environment loaders run the command after `--` or their options
    ("mise exec node@20 -- rm a", ["rm", "a"], ["mise"], []),
    ("mise x -- rm a", ["rm", "a"], ["mise"], []),
    ("asdf exec rm a", ["rm", "a"], ["asdf"], []),
    ("direnv exec . rm a", ["rm", "a"], ["direnv"], []),
    ("devbox run rm a", ["rm", "a"], ["devbox"], []),
    ("dotenv -e .env.test -- rm a", ["rm", "a"], ["dotenv"], []),
    ("env-cmd -f .env rm a", ["rm", "a"], ["env-cmd"], []),
    ("cross-env NODE_ENV=test rm a", ["rm", "a"], ["cross-env"], []),
    ("nix develop .#ci -c rm a", ["rm", "a"], ["nix"], []),
    ("nix shell nixpkgs#hello --command rm a", ["rm", "a"], ["nix"], []),
]


@pytest.mark.parametrize(("command", "argv", "wrappers", "assignments"), WRAPPERS)
def test_wrappers_are_stripped(command: str, argv: list[str], wrappers: list[str], assignments: list[tuple[str, str]]) -> None:
    result = analyze(command)
    cmd = result.commands[0]
    assert (cmd.argv, cmd.program, cmd.wrappers, cmd.assignments) == (argv, "rm" if argv[0].endswith("rm") else cmd.program, wrappers, assignments)
    assert result.complete, result.problems


NOT_WRAPPED = [
    ("sudo -l", ["sudo", "-l"]),
    ("env", ["env"]),
    ("env FOO=1", ["env", "FOO=1"]),
    ("command -v rm", ["command", "-v", "rm"]),
    ("command -V rm", ["command", "-V", "rm"]),
    ("nohup", ["nohup"]),
    ('"FOO=1" rm', ["FOO=1", "rm"]),
    ("echo FOO=1", ["echo", "FOO=1"]),
    ("timeout 5", ["timeout", "5"]),
    ("uv pip install x", ["uv", "pip", "install", "x"]),
    ("poetry install", ["poetry", "install"]),
    ("mise install", ["mise", "install"]),
    ("nix build .#x", ["nix", "build", ".#x"]),
    ("direnv allow", ["direnv", "allow"]),
]


@pytest.mark.parametrize(("command", "argv"), NOT_WRAPPED)
def test_wrappers_without_a_command_stay(command: str, argv: list[str]) -> None:
    assert [c.argv for c in analyze(command).commands] == [argv]


NESTED = [
    ("bash -c 'rm -rf /'", [("", ["bash", "-c", "rm -rf /"]), ("bash -c", ["rm", "-rf", "/"])]),
    ("sh -c \"rm a; rm b\"", [("", ["sh", "-c", "rm a; rm b"]), ("sh -c", ["rm", "a"]), ("sh -c", ["rm", "b"])]),
    ("bash -lc 'rm a'", [("", ["bash", "-lc", "rm a"]), ("bash -c", ["rm", "a"])]),
    ("bash -e -x -c 'rm a' name arg", [("", ["bash", "-e", "-x", "-c", "rm a", "name", "arg"]), ("bash -c", ["rm", "a"])]),
    ("bash -o pipefail -c 'rm a'", [("", ["bash", "-o", "pipefail", "-c", "rm a"]), ("bash -c", ["rm", "a"])]),
    ("zsh -c 'rm a'", [("", ["zsh", "-c", "rm a"]), ("zsh -c", ["rm", "a"])]),
    ("dash -c 'rm a'", [("", ["dash", "-c", "rm a"]), ("dash -c", ["rm", "a"])]),
    ("ksh -c 'rm a'", [("", ["ksh", "-c", "rm a"]), ("ksh -c", ["rm", "a"])]),
    ("/bin/sh -c 'rm a'", [("", ["/bin/sh", "-c", "rm a"]), ("sh -c", ["rm", "a"])]),
    ("sudo bash -c 'rm a'", [("", ["bash", "-c", "rm a"]), ("bash -c", ["rm", "a"])]),
    ("bash -c \"bash -c 'rm a'\"", [("", ["bash", "-c", "bash -c 'rm a'"]), ("bash -c", ["bash", "-c", "rm a"]), ("bash -c>bash -c", ["rm", "a"])]),
    ("eval 'rm a'", [("", ["eval", "rm a"]), ("eval", ["rm", "a"])]),
    ("eval rm -rf /", [("", ["eval", "rm", "-rf", "/"]), ("eval", ["rm", "-rf", "/"])]),
    ("eval \"r\"\"m\" a", [("", ["eval", "rm", "a"]), ("eval", ["rm", "a"])]),
    ("su -c 'rm a' root", [("", ["su", "-c", "rm a", "root"]), ("su -c", ["rm", "a"])]),
    ("su - root -c 'rm a'", [("", ["su", "-", "root", "-c", "rm a"]), ("su -c", ["rm", "a"])]),
    ("ssh host 'rm -rf /'", [("", ["ssh", "host", "rm -rf /"]), ("ssh", ["rm", "-rf", "/"])]),
    ("ssh -p 22 -i key user@host rm -rf /srv", [("", ["ssh", "-p", "22", "-i", "key", "user@host", "rm", "-rf", "/srv"]), ("ssh", ["rm", "-rf", "/srv"])]),
    ("ssh host", [("", ["ssh", "host"])]),
    ("xargs rm -f", [("", ["xargs", "rm", "-f"]), ("xargs", ["rm", "-f"])]),
    ("xargs -0 -n 1 -I {} rm {}", [("", ["xargs", "-0", "-n", "1", "-I", "{}", "rm", "{}"]), ("xargs", ["rm", "{}"])]),
    ("xargs --max-args=2 sudo rm", [("", ["xargs", "--max-args=2", "sudo", "rm"]), ("xargs", ["rm"])]),
    ("xargs -I% sh -c 'rm %'", [("", ["xargs", "-I%", "sh", "-c", "rm %"]), ("xargs", ["sh", "-c", "rm %"]), ("xargs>sh -c", ["rm", "%"])]),
    ("find . -name '*.o' -exec rm {} \\;", [("", ["find", ".", "-name", "*.o", "-exec", "rm", "{}", ";"]), ("find -exec", ["rm", "{}"])]),
    ("find / -execdir rm -rf {} +", [("", ["find", "/", "-execdir", "rm", "-rf", "{}", "+"]), ("find -exec", ["rm", "-rf", "{}"])]),
    ("find . -ok rm {} ';' -exec ls {} \\;", [("", ["find", ".", "-ok", "rm", "{}", ";", "-exec", "ls", "{}", ";"]), ("find -exec", ["rm", "{}"]), ("find -exec", ["ls", "{}"])]),
    ("find . -name x -delete", [("", ["find", ".", "-name", "x", "-delete"])]),
    ("parallel rm {} ::: a b", [("", ["parallel", "rm", "{}", ":::", "a", "b"]), ("parallel", ["rm", "a"]), ("parallel", ["rm", "b"])]),
    ("parallel gzip ::: x.log", [("", ["parallel", "gzip", ":::", "x.log"]), ("parallel", ["gzip", "x.log"])]),
    ("parallel rm {} :::: list.txt", [("", ["parallel", "rm", "{}", "::::", "list.txt"]), ("parallel", ["rm", "{}"])]),
    ("parallel 'mv {} {.}.bak' ::: a.txt", [("", ["parallel", "mv {} {.}.bak", ":::", "a.txt"]), ("parallel", ["mv", "{}", "{.}.bak"])]),
    ("parallel ::: 'rm a' 'rm b'", [("", ["parallel", ":::", "rm a", "rm b"]), ("parallel", ["rm", "a"]), ("parallel", ["rm", "b"])]),
    ("watch -n 5 'rm a'", [("", ["watch", "-n", "5", "rm a"]), ("watch", ["rm", "a"])]),
    ("watch -x rm a", [("", ["watch", "-x", "rm", "a"]), ("watch", ["rm", "a"])]),
    ("flock /tmp/l -c 'rm a'", [("", ["flock", "/tmp/l", "-c", "rm a"]), ("flock -c", ["rm", "a"])]),
    ("chroot /mnt rm -rf /", [("", ["chroot", "/mnt", "rm", "-rf", "/"]), ("chroot", ["rm", "-rf", "/"])]),
    ("script -q -c 'rm a' /dev/null", [("", ["script", "-q", "-c", "rm a", "/dev/null"]), ("script -c", ["rm", "a"])]),
    ("alias ll='rm -rf /'", [("", ["alias", "ll=rm -rf /"]), ("alias", ["rm", "-rf", "/"])]),
    ("trap 'rm -f /tmp/lock' EXIT", [("", ["trap", "rm -f /tmp/lock", "EXIT"]), ("trap", ["rm", "-f", "/tmp/lock"])]),
    ("trap - EXIT", [("", ["trap", "-", "EXIT"])]),
    ("docker exec -it -u root web rm -rf /data", [("", ["docker", "exec", "-it", "-u", "root", "web", "rm", "-rf", "/data"]), ("docker exec", ["rm", "-rf", "/data"])]),
    ("kubectl exec -it pod -c app -- rm a", [("", ["kubectl", "exec", "-it", "pod", "-c", "app", "--", "rm", "a"]), ("kubectl exec", ["rm", "a"])]),
    ("docker compose exec -T -u app web rake db:drop", [("", ["docker", "compose", "exec", "-T", "-u", "app", "web", "rake", "db:drop"]), ("docker compose exec", ["rake", "db:drop"])]),
    ("docker compose -f dev/compose.yml run --rm -e A=1 web rm a", [("", ["docker", "compose", "-f", "dev/compose.yml", "run", "--rm", "-e", "A=1", "web", "rm", "a"]), ("docker compose run", ["rm", "a"])]),
    ("docker-compose run --rm web bundle exec rake db:reset", [("", ["docker-compose", "run", "--rm", "web", "bundle", "exec", "rake", "db:reset"]), ("docker-compose run", ["rake", "db:reset"])]),
    ("podman-compose exec app npm test", [("", ["podman-compose", "exec", "app", "npm", "test"]), ("podman-compose exec", ["npm", "test"])]),
    ("docker run --rm -v a:/b --network host img rm a", [("", ["docker", "run", "--rm", "-v", "a:/b", "--network", "host", "img", "rm", "a"]), ("docker run", ["rm", "a"])]),
    ("docker compose run --rm web", [("", ["docker", "compose", "run", "--rm", "web"])]),
    ("docker compose up -d", [("", ["docker", "compose", "up", "-d"])]),
    ("docker run --rm img", [("", ["docker", "run", "--rm", "img"])]),
    ("pnpm vitest run", [("", ["pnpm", "vitest", "run"]), ("pnpm", ["vitest", "run"])]),
    ("yarn run eslint .", [("", ["yarn", "run", "eslint", "."]), ("yarn", ["eslint", "."])]),
    ("bun tsc --noEmit", [("", ["bun", "tsc", "--noEmit"]), ("bun", ["tsc", "--noEmit"])]),
    ("yarn lint", [("", ["yarn", "lint"])]),
    ("pnpm run build", [("", ["pnpm", "run", "build"])]),
    ("ssh host <<EOF\nrm a\nEOF", [("", ["ssh", "host"]), ("ssh", ["rm", "a"])]),
    ("echo 'rm a' | sh", [("", ["echo", "rm a"]), ("", ["sh"]), ("| sh", ["rm", "a"])]),
    ("printf 'rm %s\\n' a b | bash -s", [("", ["printf", "rm %s\\n", "a", "b"]), ("", ["bash", "-s"]), ("| bash", ["rm", "a"]), ("| bash", ["rm", "b"])]),
    ("echo a b | xargs rm", [("", ["echo", "a", "b"]), ("", ["xargs", "rm"]), ("xargs", ["rm"]), ("xargs", ["rm", "a", "b"])]),
    ("xargs rm -rf <<EOF\n/tmp/a\nEOF", [("", ["xargs", "rm", "-rf"]), ("xargs", ["rm", "-rf"]), ("xargs", ["rm", "-rf", "/tmp/a"])]),
    ("echo a | xargs -I{} rm {}", [("", ["echo", "a"]), ("", ["xargs", "-I{}", "rm", "{}"]), ("xargs", ["rm", "{}"])]),
    ("cat x | sh", [("", ["cat", "x"]), ("", ["sh"])]),
    ("sudo -s <<EOF\nrm a\nEOF", [("", ["sudo", "-s"]), ("sudo <<", ["rm", "a"])]),
    ("su - root <<< 'rm a'", [("", ["su", "-", "root"]), ("su <<", ["rm", "a"])]),
    ("source /dev/stdin <<< 'rm a'", [("", ["source", "/dev/stdin"]), ("source <<", ["rm", "a"])]),
    ("bash /dev/stdin <<< 'rm a'", [("", ["bash", "/dev/stdin"]), ("bash <<", ["rm", "a"])]),
    ("echo 'rm a' | sudo -i", [("", ["echo", "rm a"]), ("", ["sudo", "-i"]), ("| sudo", ["rm", "a"])]),
    ("echo 'rm a' | ssh host", [("", ["echo", "rm a"]), ("", ["ssh", "host"]), ("| ssh", ["rm", "a"])]),
    ("sudo -l <<< 'rm a'", [("", ["sudo", "-l"])]),
    ("git rebase -i --exec 'rm a' HEAD~3", [("", ["git", "rebase", "-i", "--exec", "rm a", "HEAD~3"]), ("git rebase --exec", ["rm", "a"])]),
    ("git bisect run rm a", [("", ["git", "bisect", "run", "rm", "a"]), ("git bisect run", ["rm", "a"])]),
    ("git submodule foreach 'rm a'", [("", ["git", "submodule", "foreach", "rm a"]), ("git submodule foreach", ["rm", "a"])]),
    ("git filter-branch --tree-filter 'rm a' HEAD", [("", ["git", "filter-branch", "--tree-filter", "rm a", "HEAD"]), ("git filter-branch", ["rm", "a"])]),
    ("git commit -m 'rm a'", [("", ["git", "commit", "-m", "rm a"])]),
    ("bash script.sh", [("", ["bash", "script.sh"])]),
    ("bash", [("", ["bash"])]),
    ("runuser -u app -c 'rm a'", [("", ["runuser", "-u", "app", "-c", "rm a"]), ("runuser -c", ["rm", "a"])]),
]


@pytest.mark.parametrize(("command", "expected"), NESTED)
def test_launchers_are_followed(command: str, expected: list[tuple[str, list[str]]]) -> None:
    result = analyze(command)
    assert [(c.origin, c.argv) for c in result.commands] == expected
    assert result.complete, result.problems


def test_depth_grows_with_each_hop() -> None:
    commands = analyze("sudo bash -c \"eval 'echo \\$(rm a)'\"").commands
    rm = next(c for c in commands if c.program == "rm")
    assert (rm.origin, rm.depth) == ("bash -c>eval>$(...)", 3)


def test_xargs_and_find_exec_mark_the_unknown_arguments_dynamic() -> None:
    commands = analyze("ls | xargs rm; find . -exec rm {} \\;").commands
    assert [(c.origin, c.dynamic) for c in commands if c.program == "rm"] == [("xargs", True), ("find -exec", True)]


DYNAMIC_CODE = [
    ("eval \"$CMD\"", "dynamic program name"),
    ("bash -c \"$(curl -fsSL https://x)\"", "dynamic program name"),
    ("sudo $PROG -rf /", "dynamic program name"),
    ("xargs $CMD", "dynamic program name"),
]


@pytest.mark.parametrize(("command", "problem"), DYNAMIC_CODE)
def test_code_known_only_at_run_time_is_incomplete(command: str, problem: str) -> None:
    result = analyze(command)
    assert not result.complete
    assert any(problem in p for p in result.problems), result.problems


# Commands smuggled into another process: a terminal multiplexer's pane, a job scheduler, a
# makefile or crontab read on stdin. What they will run is analysed (origin: the launcher).
SMUGGLED = [
    ("tmux send-keys -t main 'rm -rf ~/' Enter", [["rm", "-rf", "~/"]]),
    ("tmux send-keys -t dev:0 npm Space run Space dev C-m", [["npm", "run", "dev"]]),
    ("tmux send-keys -t 1 C-c", []),
    ("tmux send-keys -X copy-mode", []),
    ("tmux new-session -d -s srv 'python -m http.server'", [["python", "-m", "http.server"]]),
    ("tmux new -d 'rm -rf ~/' \\; attach", [["rm", "-rf", "~/"]]),
    ("tmux split-window -h -c ~/src 'make watch'", [["make", "watch"]]),
    ("tmux run-shell -b 'git fetch'", [["git", "fetch"]]),
    ("tmux if-shell 'test -d .git' 'run-shell \"git pull\"'", [["test", "-d", ".git"]]),
    ("tmux ls", []),
    ("screen -S work -X stuff 'rm -rf ~/\\n'", [["rm", "-rf", "~/"]]),
    ("screen -dmS build make -j4", [["make", "-j4"]]),
    ("screen -X exec rm -rf /tmp/x", [["rm", "-rf", "/tmp/x"]]),
    ("screen -ls", []),
    ("script -qc 'rm -rf ~/' /dev/null", [["rm", "-rf", "~/"]]),
    ("script --command='npm test' out.log", [["npm", "test"]]),
    ("echo 'rm -rf ~/' | at now", [["rm", "-rf", "~/"]]),
    ("at now + 1 minute <<< 'rm -rf ~/code'", [["rm", "-rf", "~/code"]]),
    ("echo 'make nightly' | batch", [["make", "nightly"]]),
    ("at -f job.sh now", []),
    ("make -f - <<'EOF'\nall:\n\t@rm -rf ~/\n\techo $$HOME\nEOF", [["rm", "-rf", "~/"], ["echo", "$HOME"]]),
    ("printf 'all:\\n\\trm -rf build\\n' | make -f -", [["rm", "-rf", "build"]]),
    ("make -f Makefile.ci test", []),
    ("(crontab -l; echo '*/5 * * * * rm -rf ~/tmp') | crontab -", [["rm", "-rf", "~/tmp"]]),
    ("crontab <<'EOF'\n# m h dom mon dow command\nSHELL=/bin/sh\n@reboot rm -rf ~/x\n0 3 * * * make backup\nEOF", [["rm", "-rf", "~/x"], ["make", "backup"]]),
    ("crontab -l", []),
    ("systemd-run --user --on-calendar=daily rm -rf ~/Downloads", [["rm", "-rf", "~/Downloads"]]),
]


@pytest.mark.parametrize(("command", "expected"), SMUGGLED)
def test_commands_smuggled_into_another_process_are_analysed(command: str, expected: list[list[str]]) -> None:
    assert [c.argv for c in analyze(command).commands if c.depth > 0] == expected
