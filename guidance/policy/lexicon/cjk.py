"""Chinese, Japanese and Korean: the words of rules, kept as data.

These languages write words without spaces, and Japanese and Korean put the rule word after
the verb ("`.env` は読まないでください", "푸시하지 마세요") where Chinese mostly puts it before
("不要修改 `x`"). The reader (guidance/policy/cjk.py) cuts a sentence into segments at its
punctuation (，、；：() and their ASCII forms, a line break), finds the words of these tables
in each segment by longest match (so 用户 "user" is not 用 "use", 不需要 "no need" is not 不要
"don't"), and builds the frames the English reader builds: a force, verbs, objects, a
condition, an alternative, an ordering. Checks are resolved by the same code for every language.

Every entry has a language (`zh`, `ja`, `ko`, or `cjk` for words the three share, such as ❌)
and a `meaning`; tables:

- `CUES`: the force of a segment: `ban`, `avoid`, `ask`, `require`, `only`, `allow` (what is
  allowed is never banned, even under a "禁止" heading), `never` (an intensifier such as 絶対に
  that makes a plain negative a rule). `weak` cues are plain negatives ("コミットしない",
  "커밋하지 않음", "不提交"), which are rules in a list item or under a heading's force but
  descriptions elsewhere.
- `CONDITIONS`: `permission` (未经允许, 許可なく, 허락 없이: ask), `only-permission` (依頼時のみ,
  요청할 때만: only when asked, which is a question), `judgment` (除非必要, 不要な: warn),
  `situation` ("Issue番号なし", "리뷰 없이": without something no pattern can see: ask; without
  a command or a task, such as テストなしで, it is an ordering).
- `NEUTRAL`: words that hold a shorter word of another table without its meaning (用户 holds
  用, プッシュ通知 holds プッシュ, 不需要 holds 不要); they mean nothing to the reader.
- `ACTIONS`: verbs and the nouns that stand for actions, to an action of lexicon/actions.py
  (提交 and コミット are the commit, 推送 the push, PR 作成 opens a pull request).
- `NOUNS`: things a rule can be about: `branch` (ブランチ, 分支: with a verb of creating, new
  branches), `branch-name` (main, master), `category:NAME` (依赖, テスト, 린트), `credential`
  (機密情報, 密钥, 비밀), `self` (このファイル), `surface` (commit messages), `hooks`.
- `PLACES`: after a path, `dir` makes it a directory (`x` 配下, `x` 下的, `x` 폴더); `file`
  marks a file noun (ファイル, 文件); `following` is "the list below" (以下の, 如下); `like`
  marks examples of a kind (`rm` など); `and` lists verbs that share the cue after them
  (編集したり、削除したりしない); `examples` starts an illustration (例えば, 例如), whose
  objects are never banned.
- `SUBSTITUTIONS`: "X ではなく Y", "X 대신 Y" (`left`: the words before are banned), "用 Y 代替
  X", "Y 而不是 X" (`right`): the banned side is warned about, the other side is the reason's
  alternative.
- `ORDERINGS`: `before` (前に, 之前, 전에: what comes before the word waits for what comes after
  it), `after` (してから, 再, 후에: the other way round); `-action` variants count only right
  after an action word (提交前, 커밋 전, 提交后).
- `HEADINGS`: words that give a section its force (禁止事項, 금지 사항, 避けること, 要確認) or
  say that what it lists is allowed (許可されている操作, 允许的操作).

Each entry carries example sentences (written for this table, in the short check form of
`cf_guidance.policy.checkform.short`); tests/policy/test_lexicon.py compiles every one.
"""

from __future__ import annotations

from dataclasses import dataclass

from cf_guidance.policy.lexicon import Example, ex


@dataclass(frozen=True)
class Entry:
    name: str
    lang: str
    meaning: str
    words: tuple[str, ...]
    examples: tuple[Example, ...] = ()
    #: cues: a plain negative, a rule only in a list item, under a heading's force or with 絶対に
    weak: bool = False


CUES: tuple[Entry, ...] = (
    # --- Chinese ---------------------------------------------------------------------------------
    Entry("zh-ban", "zh", "ban",
          ("禁止", "不要", "不能", "不得", "严禁", "嚴禁", "请勿", "請勿", "切勿", "不许", "不準", "不准", "不可以",
           "不允许", "不允許", "不可", "不应", "不應", "不应该", "不该", "绝不", "决不", "绝对不要", "千万不要", "永远不要",
           "杜绝", "不要再"),
          (ex("- 禁止修改 `migrations/` 目录", "deny write migrations/**"),
           ex("- 不要直接修改 `src/generated/` 下的文件", "deny write src/generated/**"),
           ex("- 不能运行 `npm publish`", "deny command npm publish"),
           ex("- `git push --force` 禁止", "deny command git push --force"),
           ex("- 严禁读取 `.env` 文件", "deny read .env"),
           ex("- 不要提交", "deny command git commit"),
           ex("- 这个项目使用 `pnpm` 管理依赖"),
           ex("- 不需要运行 `npm install`"))),
    Entry("zh-ban-weak", "zh", "ban", ("不",), weak=True,
          examples=(ex("- 不使用 `git commit --amend`", "deny command git commit --amend"),
                    ex("- 不提交 `.env`", "deny stage .env"),
                    ex("这个脚本不修改 `config/` 目录。"))),
    Entry("zh-avoid", "zh", "avoid", ("避免", "尽量不要", "尽量避免", "不建议", "不推荐", "最好不要", "少用"),
          (ex("- 避免运行 `npm audit fix --force`", "warn command npm audit fix --force"),
           ex("- 不建议使用 `yarn`", "warn command yarn"),
           ex("- 避免一次性大量修改"))),
    Entry("zh-ask", "zh", "ask",
          ("需要确认", "需确认", "须确认", "需要用户确认", "需用户确认", "征得同意", "征得用户同意", "征求同意", "询问用户",
           "先询问", "请求批准", "需审批", "需要审批", "须经批准", "用户授权", "用户同意", "用户批准", "用户确认"),
          (ex("- 运行 `terraform apply` 需要用户确认", "ask command terraform apply"),
           ex("- Push 必须用户授权", "ask command git push"),
           ex("- 写文件需要确认"))),
    Entry("zh-require", "zh", "require", ("必须", "務必", "务必", "一定要", "始终", "總是", "总是", "需要", "须", "应当", "应该",
                                           "请使用", "统一使用"),
          (ex("- 必须先运行 `pnpm test` 再提交", "deny sequence pnpm test -> git commit"),
           ex("- 提交之前必须运行 `make test`", "deny sequence make test -> git commit"),
           ex("- 必须使用 `uv` 管理依赖"))),
    Entry("zh-only", "zh", "only", ("仅在", "只在", "只能", "仅限", "只允许", "仅允许", "仅", "只有"),
          (ex("- 仅在用户确认后才可执行 `npx prisma db push`", "ask command npx prisma db push"),
           ex("- 只能在 `src/` 下写代码"))),
    Entry("zh-allow", "zh", "allow", ("允许", "可以", "可自由", "无需确认", "不需要确认", "随时可以"),
          (ex("## 禁止的操作\n\n- `git push --force` 禁止，`git status` 可以随时运行\n", "deny command git push --force"),
           ex("## 禁止的操作\n\n- `git status` 可以随时运行\n"),
           ex("- `git add` / `git commit` - 允许"))),
    # --- Japanese --------------------------------------------------------------------------------
    Entry("ja-ban", "ja", "ban",
          ("禁止", "厳禁", "しないでください", "しないで下さい", "しないこと", "してはいけない", "してはいけません",
           "してはならない", "してはなりません", "するな", "行わないこと", "行わないでください", "やめてください",
           "ないでください", "ないで下さい", "てはいけない", "てはいけません", "ではいけない", "てはならない", "ないこと",
           "禁じる", "禁じます", "使用不可", "NG"),
          (ex("- `docs/api.md` を編集しないでください", "deny write docs/api.md"),
           ex("- `.env` は読まないでください", "deny read .env"),
           ex("- `npm publish` の実行は禁止", "deny command npm publish"),
           ex("- `git rm`や`rm`などのファイル削除は禁止", "deny command git rm", "deny command rm"),
           ex("以下は禁止:\n\n- `dist/` の変更\n", "deny write dist/**"),
           ex("- `npm run build` でビルドを確認する"))),
    Entry("ja-ban-weak", "ja", "ban",
          ("しない", "しません", "行わない", "行いません", "ない", "ません"), weak=True,
          examples=(ex("- 機密情報をコミットしない", "deny stage .env .env.local .env.*.local .env.production "
                       ".env.development *.pem *.key id_rsa id_ed25519 credentials.json *.p12 secrets.*"),
                    ex("- mainブランチには直接コミットしない", "deny target commit main"),
                    ex("- 自動的にコミットやプッシュを行わない", "ask command git commit", "ask command git push"),
                    ex("このスクリプトは `data/` を変更しない。"),
                    ex("- 問題ない場合は `npm test` を実行する"))),
    Entry("ja-avoid", "ja", "avoid", ("避ける", "避けて", "避けること", "控える", "控えて", "控えること", "非推奨"),
          (ex("- `npm audit fix` の実行は避ける", "warn command npm audit fix"),
           ex("- 大きな変更は避けること"))),
    Entry("ja-ask", "ja", "ask",
          ("ユーザーに確認", "ユーザーの確認", "ユーザーへの確認", "ユーザーに許可", "ユーザーの許可", "ユーザーの承認",
           "確認を取って", "確認を取る", "確認を求め", "許可を得", "許可を取", "承認を得", "承認を取", "了承を得", "相談して",
           "相談する", "指示を仰", "判断を仰", "要確認", "確認必須"),
          (ex("- git push は必ずユーザーの確認を取ってから実行すること", "ask command git push"),
           ex("- pushする前に確認を求める", "ask command git push"),
           ex("- `terraform apply` の前にユーザーに確認する", "ask command terraform apply"),
           ex("- 編集前に影響範囲を確認する"))),
    Entry("ja-require", "ja", "require", ("必ず", "必須", "すること", "常に", "徹底"),
          (ex("- コミット前に必ず `npm run lint` を実行", "deny sequence npm run lint -> git commit"),
           ex("- 常に `pnpm` を使うこと"))),
    Entry("ja-only", "ja", "only", ("のみ", "だけ", "に限る", "に限定"),
          (ex("- `package.json` の更新は依頼時のみ", "ask write package.json", exact=False),
           ex("- 最小差分のみ修正する"))),
    Entry("ja-allow", "ja", "allow",
          ("してよい", "してもよい", "して良い", "しても良い", "てよい", "ても良い", "てもよい", "自由に", "構わない",
           "構いません", "かまいません", "問題ない", "問題ありません", "問題なし", "許可されて", "可能です", "OK"),
          (ex("## 禁止事項\n\n- `git push --force` は禁止、`git status` は自由に実行してよい\n", "deny command git push --force"),
           ex("## 禁止事項\n\n- `git status` は自由に実行してよい\n"),
           ex("- `.env.local` にはダミー値を入れてよい"))),
    Entry("ja-never", "ja", "never", ("絶対に", "絶対", "決して"),
          (ex("このスクリプトは絶対に安全です。"),
           ex("このリポジトリでは絶対に `git push --force` を実行しない。", "deny command git push --force"),)),
    # --- Korean ----------------------------------------------------------------------------------
    Entry("ko-ban", "ko", "ban",
          ("하지 마세요", "하지 마십시오", "하지 말 것", "하지 말고", "하지 마라", "하지 마", "지 마세요", "지 마십시오",
           "지 말 것", "지 말고", "지 마라", "지 말아야", "금지", "금지합니다", "하면 안 됩니다", "하면 안 된다",
           "해서는 안 됩니다", "해서는 안 된다", "면 안 됩니다", "면 안 된다", "안 됩니다", "불가"),
          (ex("- `docs/api.md` 파일을 수정하지 마세요", "deny write docs/api.md"),
           ex("- `npm publish` 실행 금지", "deny command npm publish"),
           ex("- 절대 `main` 브랜치에 직접 푸시하지 마세요", "deny target push main"),
           ex("- `.env` 파일은 읽지 마세요", "deny read .env"),
           ex("- `npm run build`로 빌드합니다"))),
    Entry("ko-ban-weak", "ko", "ban", ("하지 않습니다", "하지 않는다", "하지 않음", "지 않습니다", "지 않는다", "지 않음",
                                        "지 않기", "지 않도록"), weak=True,
          examples=(ex("- main 브랜치에 직접 커밋하지 않음", "deny target commit main"),
                    ex("- Claude 이름으로 커밋하지 않음"),
                    ex("이 스크립트는 `data/` 폴더를 수정하지 않습니다."))),
    Entry("ko-avoid", "ko", "avoid", ("피하세요", "피하십시오", "피할 것", "지양", "자제", "권장하지 않"),
          (ex("- 되도록 작은 변경을 피하세요"),
           ex("- `npm audit fix` 실행은 피하세요", "warn command npm audit fix"),)),
    Entry("ko-ask", "ko", "ask",
          ("확인을 받", "확인 받", "허락을 받", "허락 받", "승인을 받", "승인 받", "물어보", "사용자에게 확인", "사용자의 확인",
           "사용자 확인", "동의를 구", "동의를 받", "확인 필요", "승인 필요"),
          (ex("- `terraform apply` 실행 전에 반드시 사용자 확인 받기", "ask command terraform apply"),
           ex("- 푸시하기 전에 사용자에게 확인을 받으세요", "ask command git push"),
           ex("- 작업 전에 관련 파일을 확인하세요"))),
    Entry("ko-require", "ko", "require", ("반드시", "필수", "항상", "해야 합니다", "해야 한다", "하세요"),
          (ex("- 커밋하기 전에 반드시 `make test`를 실행하세요", "deny sequence make test -> git commit"),
           ex("- 커밋 메시지는 반드시 한국어로 작성"))),
    Entry("ko-only", "ko", "only", ("에만", "때만", "경우에만", "만 사용"),
          (ex("- `src/` 에만 코드를 작성하세요"),
           ex("- 사용자가 요청할 때만 `git push` 실행", "ask command git push"),)),
    Entry("ko-allow", "ko", "allow", ("가능", "허용", "해도 됩니다", "해도 된다", "괜찮", "자유롭게", "않아도 됩니다"),
          (ex("## 금지 사항\n\n- `git push --force` 금지\n- `git status`는 필요시 실행 가능\n", "deny command git push --force"),
           ex("## 금지 사항\n\n- `git status`는 필요시 실행 가능\n"),)),
    Entry("ko-never", "ko", "never", ("절대로", "절대", "결코"),
          (ex("- 절대 성능을 희생하지 마세요"),
           ex("이 저장소에서는 절대 `git push --force`를 실행하지 않습니다.", "deny command git push --force"),)),
    Entry("zh-never", "zh", "never", ("绝对", "絕對", "决不", "永远", "永遠"),
          (ex("- 永远不要提交 `.env`", "deny stage .env"), ex("- 这是绝对路径"),
           ex("这个仓库绝对不使用 `yarn`。", "deny command yarn"),)),
    # --- shared marks ----------------------------------------------------------------------------
    Entry("cross-mark", "cjk", "ban", ("\u274c", "\U0001f6ab", "\u26d4"),
          (ex("- \u274c 悪い例: 長い関数"),
           ex("- \u274c `git reset --hard`", "deny command git reset --hard"),
           ex("- \u274c 避免 `git pull --rebase`：会丢弃本地提交", "warn command git pull --rebase"))),
    Entry("check-mark", "cjk", "allow", ("\u2705", "\u2714", "\u2b55"),
          (ex("- \u2705 `git diff` は実行してよい、\u274c `git reset --hard`", "deny command git reset --hard"),
           ex("## 禁止事項\n\n- \u2705 `git diff` は実行してよい\n"),)),
)

CONDITIONS: tuple[Entry, ...] = (
    Entry("zh-permission", "zh", "permission",
          ("未经允许", "未经同意", "未经确认", "未经授权", "未经批准", "未经用户", "除非用户要求", "除非明确要求",
           "除非用户明确", "除非被要求", "除非用户", "未明确要求", "没有我的许可", "没有用户许可", "没有许可", "擅自", "私自",
           "用户确认后", "经用户同意", "获得用户同意", "用户要求时", "用户明确要求时", "确认后才", "自行", "自动", "自主", "主动"),
          (ex("- 不要自动提交", "ask command git commit"), ex("- 未经允许不要修改代码风格"),
           ex("- 未经允许不要推送", "ask command git push"),
           ex("- \u274c Push 必须用户授权（Claude 不能主动 push）", "ask command git push"),
           ex("- 未经允许不要运行 `git push`", "ask command git push"),
           ex("- 除非用户要求，否则不要提交", "ask command git commit"),
           ex("- 不要擅自删除 `data/` 目录", "ask write data/**"))),
    Entry("only-when-asked", "cjk", "only-permission",
          ("依頼時のみ", "依頼された場合のみ", "指示された場合のみ", "要求時のみ", "明示的に依頼された場合のみ", "요청 시에만",
           "요청할 때만", "요청한 경우에만", "仅在用户要求时", "只在用户要求时", "用户要求时才"),
          (ex("- コミットは依頼時のみ、テストは常に実行", "ask command git commit"), ex("- 요청할 때만 답변을 짧게 쓰세요"),
           ex("- ライブラリ更新は依頼時のみ", "ask command <update-dependency>"),
           ex("- 사용자가 요청할 때만 `git push` 실행", "ask command git push"))),
    Entry("zh-judgment", "zh", "judgment", ("除非必要", "非必要", "如非必要", "除非必需", "必要时"),
          (ex("- 除非必要，不要写注释"),
           ex("- 除非必要，不要运行 `npm run build`", "warn command npm run build"),)),
    Entry("ja-permission", "ja", "permission",
          ("依頼なし", "依頼なく", "依頼がない限り", "依頼されない限り", "依頼された場合のみ", "指示なし", "指示なく",
           "指示がない限り", "指示されない限り", "指示されるまで", "指示があるまで", "明示的な指示", "明示的に依頼", "明示的に指示",
           "許可なく", "許可なし", "許可を得ずに", "無断で", "勝手に", "確認なしに", "確認なく", "事前確認なし", "承認なし",
           "承認なく", "要求するまで", "依頼するまで", "指示するまで", "許可するまで", "許可があるまで", "依頼があった場合",
           "自律的に", "自主的に", "独断で", "自動で", "自動的に", "自動実行"),
          (ex("- 許可なく設計を変更しない"),
           ex("- 依頼なしの `package.json` 更新は禁止", "ask write package.json", exact=False),
           ex("- ユーザーの指示がない限りコミットしないでください", "ask command git commit"),
           ex("- 勝手にPRを作成しない", "ask command <pull-request>"),
           ex("- `curl` / `wget` は事前確認なしに実行しない", "ask command curl", "ask command wget"))),
    Entry("ja-judgment", "ja", "judgment", ("不要な", "不必要な", "不要不急", "必要以上に", "必要がない限り", "必要な場合を除き",
                                              "できるだけ", "なるべく"),
          (ex("- 不要なコメントは書かない"),
           ex("以下は禁止:\n\n- 不要な `pages/_document.js` 変更\n", "warn write pages/_document.js"),)),
    Entry("ja-situation", "ja", "situation", ("なしで", "なしの", "なし", "せずに"),
          (ex("- テストなしでも動く"),
           ex("## 禁止事項\n\n- Issue番号なし PR 作成\n", "ask command <pull-request>"),)),
    Entry("ko-permission", "ko", "permission",
          ("허락 없이", "허가 없이", "요청 없이", "승인 없이", "확인 없이", "동의 없이", "지시 없이", "요청하지 않는 한",
           "요청하지 않은", "명시적으로 요청", "임의로", "임의", "마음대로", "명령하기 전까지", "자율적으로", "자동으로",
           "자동", "멋대로"),
          (ex("- 절대로 커밋을 자율적으로 하지 말 것", "ask command git commit"), ex("- 허락 없이 디자인을 바꾸지 마세요"),
           ex("- 허락 없이 커밋하지 마세요", "ask command git commit"),
           ex("- \u274c `git push` 자동 실행 금지", "ask command git push"),
           ex("- `rm` 명령어 임의 사용 금지", "ask command rm"))),
    Entry("ko-judgment", "ko", "judgment", ("불필요한", "필요한 경우가 아니라면", "가급적", "되도록"),
          (ex("- 불필요한 주석은 쓰지 마세요"),
           ex("- 필요한 경우가 아니라면 `npm run build`를 실행하지 마세요", "warn command npm run build"),)),
    Entry("ko-situation", "ko", "situation", ("없이",),
          (ex("- 설명 없이 코드를 남기지 마세요"),
           ex("- 테스트 통과 없이 `git push` 금지", "deny sequence <test> -> git push"),
           ex("- 리뷰 없이 머지 금지", "ask command git merge"))),
)

NEUTRAL: tuple[Entry, ...] = (
    Entry("zh-neutral", "zh", "",
          ("用户", "用于", "作用", "应用", "费用", "用法", "用例", "通用", "常用", "有用", "可用", "用来", "不需要", "不必",
           "不可能", "不可或缺", "不可避免", "不一定", "不同", "不是", "不会", "当前", "目前", "前端", "以前", "前面", "前提",
           "提交信息", "提交消息", "提交说明", "提交记录", "提交历史", "推送通知", "消息推送", "不仅", "不断", "不过", "不足", "无须",
           "无需", "例外", "等待", "等于", "内容"),
          (ex("- 不要用 `npm`，用户数据在 `data/`", "deny command npm"),
           ex("- 用户数据存放在 `data/`"),)),
    Entry("ja-neutral", "ja", "",
          ("プッシュ通知", "未コミット", "コミットメッセージ", "コミットログ", "必要ない", "必要はない", "少ない", "ない場合",
           "しない限り", "しないと", "しなくて", "以前", "前提", "名前", "目の前", "事前", "直前", "午前", "不可能", "例外", "内容", "以内",
           "例外なし", "例外なく"),
          (ex("- 未コミットの `.env` をコミットしない", "deny stage .env"),
           ex("- `git status` で未コミット変更を確認する"),)),
    Entry("ko-neutral", "ko", "",
          ("푸시 알림", "커밋 메시지", "자동화", "않으면", "지 않는 한", "전체", "전역", "전부", "이전", "전송", "전환", "전략", "후보",
           "이후", "사용자", "불가능", "가능한"),
          (ex("- 사용자 설정 파일 `config.json` 을 수정하지 마세요", "deny write config.json"),
           ex("- 커밋 메시지는 한국어로 작성합니다"),)),
)

#: grammatical particles and copulas: they carry no meaning for a rule, and a segment made of table
#: words and these only names nothing in passing (anything else is a description's words)
PARTICLES: tuple[Entry, ...] = (
    Entry("zh-particles", "zh", "particle", ("的", "了", "在", "是", "和", "与", "及", "把", "将", "对"),
          (ex("- 不要把 `yarn` 和 `npm` 混用", "deny command yarn", "deny command npm"),
           ex("这个项目的构建工具是 Go。"))),
    Entry("ja-particles", "ja", "particle", ("の", "を", "は", "が", "に", "へ", "で", "と", "や", "も", "です", "である", "だ", "ます",
                                               "します", "する"),
          (ex("- `yarn` は禁止です", "deny command yarn"),
           ex("## 要確認\n\nこのプロジェクトは Go で書かれている。\n"))),
    Entry("ko-particles", "ko", "particle", ("의", "을", "를", "은", "는", "이", "가", "에", "와", "과", "도", "로", "입니다"),
          (ex("- `yarn`은 금지입니다", "deny command yarn"),
           ex("## 금지 사항\n\n- `gh` 인증 오류가 나면 작업을 멈추고 보고\n"))),
)

ACTIONS: tuple[Entry, ...] = (
    Entry("run", "cjk", "run", ("运行", "執行", "执行", "跑", "実行", "走らせ", "起動", "叩", "실행", "구동", "돌리"),
          (ex("- 运行 `make test` 检查结果"),
           ex("- 不要运行 `make clean`", "deny command make clean"),
           ex("- `make clean` は実行しないでください", "deny command make clean"),
           ex("- `make clean`을 실행하지 마세요", "deny command make clean"))),
    Entry("use", "cjk", "use", ("使用", "采用", "用", "使う", "使わ", "使い", "利用", "사용", "쓰지"),
          (ex("- 禁止使用 pip、conda 等其他包管理工具", "deny command pip", "deny command conda"),
           ex("- `yarn` は使わないでください", "deny command yarn"),
           ex("- `any` は使わないでください"))),
    Entry("edit", "cjk", "edit",
          ("编辑", "修改", "更改", "改动", "覆盖", "改写", "变更", "改", "編集", "変更", "修正", "書き換え", "書き換", "上書き",
           "改変", "手編集", "触る", "触ら", "いじ", "편집", "수정", "변경", "업데이트", "덮어쓰", "건드리"),
          (ex("- 修改代码后运行测试"),
           ex("- 不要改动 `vendor/` 目录", "deny write vendor/**"),
           ex("- `schema.sql` を手編集しないでください", "deny write schema.sql"),
           ex("- `vendor/` 폴더는 건드리지 마세요", "deny write vendor/**"))),
    Entry("update", "cjk", "update", ("升级", "アップデート", "アップグレード", "업그레이드", "更新"),
          (ex("- 更新日志写在 `CHANGELOG.md`"),
           ex("- ライブラリ更新は依頼時のみ", "ask command <update-dependency>"),)),
    Entry("delete", "cjk", "delete", ("删除", "移除", "删掉", "刪除", "削除", "消去", "消す", "消さ", "삭제", "제거", "지우"),
          (ex("- 削除された機能は `docs/removed.md` に記録する"),
           ex("- 不要删除 `data/` 目录下的文件", "deny write data/**"),
           ex("- `fixtures/` 以下のファイルは削除しないでください", "deny write fixtures/**"))),
    Entry("create", "cjk", "create", ("创建", "新建", "新增", "建立", "作成", "作る", "作ら", "新規作成", "생성", "만들", "만드"),
          (ex("- 새 파일은 `src/` 아래에 생성합니다"),
           ex("- 禁止在 `src/legacy/` 下新建文件", "deny create src/legacy/**"),
           ex("- ブランチ作成は禁止", "deny branch <no new branches>"),
           ex("- 절대로 브랜치 생성이나 커밋을 자율적으로 하지 말 것", "ask branch <no new branches>", "ask command git commit"))),
    Entry("read", "cjk", "read", ("读取", "查看", "打开", "阅读", "読む", "読み", "読ま", "参照", "閲覧", "開く", "開か", "읽",
                                   "열람", "조회", "열어"),
          (ex("- まず `README.md` を読んでください"),
           ex("- 不要读取 `secrets/` 目录", "deny read secrets/**"),
           ex("- `examples/` 以下のファイルは依頼がない限り読まないでください", "ask read examples/**"))),
    Entry("commit", "cjk", "commit", ("提交", "提交代码", "コミット", "커밋", "commit"),
          (ex("- 未经允许不要提交", "ask command git commit"),
           ex("- `.env` ファイルの Git コミットは禁止", "deny stage .env"),
           ex("- 提交信息使用中文"))),
    Entry("push", "cjk", "push", ("推送", "推到", "プッシュ", "푸시", "push"),
          (ex("- 不要推送到 `main` 分支", "deny target push main"),
           ex("- 社外秘のファイルは公開リポジトリへ push しない"))),
    Entry("force-push", "cjk", "force-push", ("强制推送", "強制プッシュ", "강제 푸시", "강제푸시", "force push", "force-push"),
          (ex("- 강제 푸시가 필요하면 알려주세요"),
           ex("- 禁止强制推送", "deny command <force-push>"),)),
    Entry("merge", "cjk", "merge", ("合并", "合入", "マージ", "병합", "머지", "merge"),
          (ex("- 合并请求需要两位审核人"),
           ex("- 承認なしでマージしない", "ask command git merge"),)),
    Entry("rebase", "cjk", "rebase", ("变基", "リベース", "리베이스", "rebase"),
          (ex("- リベースの手順は `docs/git.md` を参照"),
           ex("- 不要变基", "deny command git rebase"),)),
    Entry("tag", "cjk", "tag", ("打标签", "タグ付け", "태그 생성"),
          (ex("- タグ付けの規則は `docs/release.md`"),
           ex("- タグ付けは禁止", "deny command <tag>"),)),
    Entry("install", "cjk", "install", ("安装", "インストール", "설치", "導入"),
          (ex("- 依赖安装使用 `pnpm install`"),
           ex("- 未经允许不要安装新的依赖", "ask command <add-dependency>"),)),
    Entry("add", "cjk", "add", ("添加", "追加", "导入", "引入", "加入", "추가"),
          (ex("- 新しい機能を追加したらテストも追加する"),
           ex("- 依存関係の追加はユーザーの承認を得ること", "ask command <add-dependency>"),
           ex("- 의존성 추가 금지", "deny command <add-dependency>"))),
    Entry("publish", "cjk", "publish", ("发布", "発行", "공개 배포"),
          (ex("- 发布流程见 `docs/release.md`"),
           ex("- 禁止发布到 npm", "deny command <publish>"),)),
    Entry("deploy", "cjk", "deploy", ("部署", "上线", "デプロイ", "배포"),
          (ex("- デプロイは CI が行います"),
           ex("- 禁止部署到生产环境", "ask command <deploy>"),)),
    Entry("expose", "cjk", "expose", ("泄露", "泄漏", "暴露", "漏洩", "노출"),
          (ex("- 不要泄露 npm 凭证", "deny read ~/.npmrc", "deny read .npmrc", "deny variable NPM_TOKEN NODE_AUTH_TOKEN"),
           ex("- npm のトークンを漏洩しないこと", "deny read ~/.npmrc", "deny read .npmrc", "deny variable NPM_TOKEN NODE_AUTH_TOKEN"),
           ex("- 不要泄露 `~/.npmrc`"))),
    Entry("bypass", "cjk", "bypass", ("跳过", "绕过", "スキップ", "迂回", "건너뛰", "우회"),
          (ex("- 失敗するテストをスキップしない理由を書く"),
           ex("- 禁止跳过 pre-commit 钩子", "deny command git commit --no-verify", exact=False),)),
)

NOUNS: tuple[Entry, ...] = (
    Entry("pull-request", "cjk", "category:pull-request",
          ("pr", "pull request", "mr", "プルリク", "プルリクエスト", "マージリクエスト", "拉取请求", "合并请求", "풀 리퀘스트",
           "풀리퀘스트"),
          (ex("- 禁止创建 PR", "deny command <pull-request>"),
           ex("- 勝手にPRを投げたりしない", "ask command <pull-request>"),
           ex("- PR 作成後はレビューを待つ"))),
    Entry("branch", "cjk", "branch", ("ブランチ", "分支", "브랜치"),
          (ex("- 在新分支上工作"),
           ex("- 新建分支需要用户确认", "ask branch <no new branches>"),)),
    Entry("branch-name", "cjk", "branch-name", ("main", "master", "develop", "trunk"),
          (ex("- main 分支用于发布"),
           ex("- 禁止直接推送到 master", "deny target push master"),)),
    Entry("secrets", "cjk", "credential",
          ("機密情報", "秘密情報", "秘密鍵", "シークレット", "認証情報", "apiキー", "api キー", "パスワード", "トークン", "密钥",
           "秘钥", "敏感信息", "凭证", "凭据", "密码", "令牌", "비밀", "비밀 키", "시크릿", "자격 증명", "민감한 정보", "비밀번호",
           "api 키", "토큰", "secrets", "secret", "credentials"),
          (ex("- 密钥存放在 `vault/`"),
           ex("- 禁止提交密钥", "deny stage .env .env.local .env.*.local .env.production .env.development *.pem *.key "
              "id_rsa id_ed25519 credentials.json *.p12 secrets.*"),)),
    Entry("dependencies", "cjk", "category:add-dependency",
          ("依存", "依存関係", "依赖", "依赖包", "第三方库", "의존성", "パッケージ", "ライブラリ", "新的包", "패키지", "라이브러리"),
          (ex("- 依存関係は `package.json` で管理する"),
           ex("- 依存関係を追加しないでください", "deny command <add-dependency>"),)),
    Entry("dependency-updates", "cjk", "category:update-dependency",
          ("ライブラリ更新", "依存関係の更新", "依存更新", "依赖升级", "依赖更新", "의존성 업데이트", "패키지 업데이트"),
          (ex("- 依赖更新由 Renovate 负责"),
           ex("- 依赖升级需要用户确认", "ask command <update-dependency>"),)),
    Entry("environment", "cjk", "category:env-change", ("環境変数", "环境变量", "환경 변수", "환경변수"),
          (ex("- 環境変数は `.env.example` を参照"),
           ex("- 環境変数変更は禁止", "deny command <env-change>"),)),
    Entry("tests", "cjk", "category:test", ("テスト", "测试", "單元測試", "单元测试", "테스트"),
          (ex("- テストは `tests/` に置く"),
           ex("- 提交前必须跑测试", "deny sequence <test> -> git commit"),)),
    Entry("build", "cjk", "category:build", ("ビルド", "构建", "編譯", "编译", "빌드"),
          (ex("- 构建产物在 `dist/`"),
           ex("- プッシュ前に必ずビルドを確認", "deny sequence <build> -> git push"),)),
    Entry("lint", "cjk", "category:lint", ("リント", "lint", "代码检查", "린트"),
          (ex("- 린트 설정은 `.eslintrc` 에 있습니다"),
           ex("- 커밋 전에 반드시 린트 실행", "deny sequence <lint> -> git commit"),)),
    Entry("typecheck", "cjk", "category:typecheck", ("型チェック", "类型检查", "타입 체크", "타입체크"),
          (ex("- 类型检查使用 `tsc`"),
           ex("- 推送前必须做类型检查", "deny sequence <typecheck> -> git push"),)),
    Entry("format", "cjk", "category:format", ("フォーマット", "格式化", "포맷"),
          (ex("- フォーマットは Prettier で行う"),
           ex("- コミット前にフォーマットを実行すること", "deny sequence <format> -> git commit"),)),
    Entry("self", "cjk", "self", ("このファイル", "本ファイル", "此文件", "这个文件", "本文件", "이 파일"),
          (ex("- このファイルは日本語で書く"),
           ex("- このファイルは編集しないでください", "deny write CLAUDE.md"),)),
    Entry("hooks", "cjk", "hooks", ("フック", "钩子", "훅", "pre-commit"),
          (ex("- pre-commit フックは `make hooks` でインストールする"),
           ex("- pre-commit フックをスキップしない", "deny command git commit --no-verify", exact=False),)),
    Entry("changes", "cjk", "changes", ("差分", "変更内容", "変更点", "ファイル変更", "改动内容", "变更内容", "diff", "변경 사항",
                                         "변경사항", "변경 내용"),
          (ex("- 差分は小さく保つ"),
           ex("- コミット前に必ず差分を確認する", "deny sequence <review-changes> -> git commit"),)),
    Entry("verify", "cjk", "verify", ("確認", "确认", "检查", "チェック", "확인", "점검"),
          (ex("- 動作を確認する"),
           ex("- mainへ直接pushする前に、意図しないファイル変更がないことを確認する",
              "warn sequence <review-changes> -> git push to main"),)),
)

#: nouns that stand for an action when the segment has no verb of their own kind ("PR 作成",
#: "ライブラリ更新", "環境変数変更" under a ban): the action their checks are resolved with
NOUN_ACTIONS: dict[str, str] = {"category:pull-request": "open", "category:update-dependency": "update",
                                "category:add-dependency": "add", "category:env-change": "edit"}

PLACES: tuple[Entry, ...] = (
    Entry("directory", "cjk", "dir",
          ("配下", "下的", "下", "内", "の中", "中的", "中", "里", "里面", "内部", "目录", "目录下", "目錄", "文件夹", "ディレクトリ",
           "フォルダ", "디렉토리", "디렉터리", "폴더", "하위", "내부", "아래"),
          (ex("- `src/` 配下にコードを置く"),
           ex("- `generated/` 配下は編集しないでください", "deny write generated/**"),)),
    Entry("file", "cjk", "file", ("ファイル", "文件", "檔案", "파일"),
          (ex("- 设置文件是 `config.toml`"),
           ex("- 不要修改 `out` 目录下的文件", "deny write out/**"),)),
    Entry("following", "cjk", "following", ("以下の", "以下は", "下記", "次の", "如下", "以下", "下面", "下列", "다음", "아래의"),
          (ex("- 以下の手順で進める"),
           ex("以下のコマンドは実行しないでください：\n\n- `make nuke`\n", "deny command make nuke"),
           ex("以下文件不应提交到仓库：\n\n- `.env`\n", "deny stage .env"))),
    Entry("like", "cjk", "like", ("など", "などの", "等", "等等", "とか", "등", "같은"),
          (ex("- `eslint` などのツールを使う"),
           ex("- `curl` など外部通信コマンドの実行は禁止", "deny command curl"),)),
    Entry("and", "ja", "and", ("たり", "だり"),
          (ex("- `config/` を編集したり、削除したりしない", "deny write config/**"),
           ex("- テストを書いたり、ドキュメントを読んだりする"))),
    Entry("examples", "cjk", "examples", ("例えば", "例:", "例：", "例", "例如", "比如", "譬如", "예를 들어", "예:", "예시"),
          (ex("- 禁止使用 `yarn`，例如 `yarn add`", "deny command yarn"),
           ex("## 変更禁止ファイル\n\n- 例: `docker-compose.prod.yml`\n"),)),
)

SUBSTITUTIONS: tuple[Entry, ...] = (
    Entry("ja-not-but", "ja", "left", ("ではなく", "ではなくて", "じゃなく", "でなく", "の代わりに", "代わりに", "使わず", "使用せず",
                                        "使わずに", "使用せずに"),
          (ex("- `npm` ではなく `pnpm` を使用", "warn command npm"),
           ex("- npmの代わりに常にpnpmを使ってください", "warn command npm"),
           ex("- `npx` は使わず、`pnpm dlx` を使う", "warn command npx"),
           ex("- `any` ではなく `unknown` を使う"))),
    Entry("ko-instead", "ko", "left", ("대신", "대신에", "말고", "가 아닌", "이 아닌"),
          (ex("- 필요하면 다른 방법 대신 질문하세요"),
           ex("- `npm` 대신 `pnpm`을 사용하세요", "warn command npm"),
           ex("- pip 말고 uv를 사용", "warn command pip"))),
    Entry("zh-instead", "zh", "right", ("而不是", "而非", "代替", "替代", "取代", "而不用"),
          (ex("- 这个函数替代旧的 API"),
           ex("- 用 `pnpm` 代替 `npm`", "warn command npm"),
           ex("- 使用 uv 而不是 pip", "warn command pip"))),
    Entry("zh-not-but", "zh", "left", ("而是", "改用"),
          (ex("- 这不是 bug 而是特性"),
           ex("- 不用 `npm` 而是用 `pnpm`", "warn command npm"),)),
)

ORDERINGS: tuple[Entry, ...] = (
    Entry("zh-before", "zh", "before", ("之前", "以前先", "前先"),
          (ex("- 在此之前请阅读 `README.md`"),
           ex("- 推送之前必须运行 `cargo clippy`", "deny sequence cargo clippy -> git push"),)),
    Entry("ja-before", "ja", "before", ("前に", "の前に", "する前に", "前には", "前は"),
          (ex("- コミットする前に `npm test` を実行する", "warn sequence npm test -> git commit"),
           ex("- 動作確認前にコミットしないでください"))),
    Entry("ko-before", "ko", "before", ("전에", "하기 전에", "하기 전", "전에는"),
          (ex("- 작업하기 전에 `README.md`를 읽으세요"),
           ex("- 커밋하기 전에 `cargo fmt`를 실행하세요", "deny sequence cargo fmt -> git commit"),)),
    Entry("before-action", "cjk", "before-action", ("前", "전"),
          (ex("- 前端代码在 `web/`"),
           ex("- 提交前必须运行 `pytest`", "deny sequence pytest -> git commit"),
           ex("- 커밋 전 `make lint` 실행 필수", "deny sequence make lint -> git commit"))),
    Entry("zh-after", "zh", "after", ("再", "然后", "之后", "之後", "后才", "後才", "后再", "通过后"),
          (ex("- 先写测试，然后写代码"),
           ex("- 必须先运行 `pnpm test` 再提交", "deny sequence pnpm test -> git commit"),
           ex("- 运行 `go test ./...` 通过后再推送", "warn sequence go test ./... -> git push"))),
    Entry("ja-after", "ja", "after", ("してから", "てから", "した後に", "した後で", "の後に", "の後で"),
          (ex("- 設計を読んでから実装する"),
           ex("- `npm run lint` を実行してからコミットする", "warn sequence npm run lint -> git commit"),)),
    Entry("ko-after", "ko", "after", ("후에", "고 나서", "한 후", "한 뒤", "한 다음"),
          (ex("- 설계를 읽은 후에 구현하세요"),
           ex("- `pytest` 통과한 후에 푸시", "warn sequence pytest -> git push"),)),
    Entry("after-action", "cjk", "after-action", ("后", "後", "후"),
          (ex("- 运行 `pytest` 后提交", "warn sequence pytest -> git commit"),
           ex("- PR 作成後はレビューを待つ"),)),
)

HEADINGS: tuple[Entry, ...] = (
    Entry("heading-ban", "cjk", "ban",
          ("禁止事項", "禁止事项", "禁止", "严禁", "禁止的操作", "禁止操作", "不要做", "금지", "금지 사항", "금지사항", "금지된",
           "してはいけないこと", "やってはいけないこと", "絶対にしないこと"),
          (ex("## 禁止事項\n\n- `dist/` の変更\n", "deny write dist/**"),
           ex("## 금지 사항\n\n- `git push --force`\n", "deny command git push --force"),
           ex("## 禁止的操作\n\n- 推送到 `main` 分支\n", "deny target push main"),
           ex("## 禁止事項\n\n- git\n"))),
    Entry("heading-avoid", "cjk", "avoid", ("避免", "避けること", "非推奨", "지양"),
          (ex("## 避けること\n\n長い関数は読みにくい。\n"),
           ex("## 避けること\n\n- `npm audit fix --force`\n", "warn command npm audit fix --force"),)),
    Entry("heading-ask", "cjk", "ask", ("要確認", "確認が必要", "需确认", "需要确认", "需审批", "확인 필요", "승인 필요"),
          (ex("## 要確認\n\nこのプロジェクトは Go で書かれている。\n"),
           ex("## 要確認\n\n- `terraform apply`\n", "ask command terraform apply"),)),
    Entry("heading-allow", "cjk", "allow", ("許可されている", "允许的", "可以做", "허용된", "허용"),
          (ex("## 允许的 Git 操作\n\n- `git push origin`\n\n## 禁止事项\n\n- `git push --force`\n", "deny command git push --force"),
           ex("## 允许的 Git 操作\n\n- `git push origin`\n"),)),
)

#: every table, by name (docs and the reader's index)
TABLES: tuple[tuple[str, tuple[Entry, ...]], ...] = (
    ("cue", CUES), ("condition", CONDITIONS), ("neutral", NEUTRAL), ("particle", PARTICLES), ("action", ACTIONS), ("noun", NOUNS),
    ("place", PLACES), ("substitution", SUBSTITUTIONS), ("ordering", ORDERINGS),
)
