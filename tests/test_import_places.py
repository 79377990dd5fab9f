"""Every refusal of an import at the place of the value at fault: what the JSON decoder
refuses at its own line and column (not column 1), a number or a key its hooks refuse at
that number or key (a number inside a text is no number), a data.js at its place in the
file (past `window.BENCHMARK_DATA =`), and the line printed under it as the file has it."""

from __future__ import annotations

from pathlib import Path

import pytest

from progress_site.record.importers import ImportFailed, read_results


def told(tmp_path: Path, fmt: str, text: str) -> list[str]:
    """What `import FMT x.json` prints of a file holding `text`: its lines."""
    (tmp_path / "x.json").write_text(text, encoding="utf-8")
    with pytest.raises(ImportFailed) as caught:
        read_results(fmt, tmp_path / "x.json", "x.json")
    return caught.value.render().splitlines()


GAB = 'window.BENCHMARK_DATA = {\n  "entries": {"s": [{"benches": [\n    {"name": "a", '


@pytest.mark.parametrize(("fmt", "text", "printed"), [
    # The decoder's own place: the third line's `oops`, not 2:1.
    ("hyperfine", '{\n  "results": [\n    {oops}]}',
     ["x.json:3:6: not JSON: Expecting property name enclosed in double quotes",
      "        {oops}]}", "         ^"]),
    ("jsonl", '{"id": "a", "value": 1}\n{"id": "b", "value": 1,}\n',
     ["x.json:2:24: not JSON: Expecting property name enclosed in double quotes",
      '    {"id": "b", "value": 1,}', " " * 27 + "^"]),
    # data.js: placed in the file, past the assignment, its own line shown.
    ("github-action-benchmark", GAB + '"value": 1,, "unit": "ns"}]}]}};\n',
     ["x.json:3:30: not JSON: Expecting property name enclosed in double quotes",
      '        {"name": "a", "value": 1,, "unit": "ns"}]}]}};', " " * 33 + "^"]),
    ("github-action-benchmark", GAB + '"value": 1, "value": 2}]}]}};\n',
     ["x.json:3:31: key 'value' appears twice in one object",
      '        {"name": "a", "value": 1, "value": 2}]}]}};', " " * 34 + "^"]),
    # A hook's refusal at its number: the 2nd whole number, not the digits in a text.
    ("hyperfine", '{"results": [{"command": "sleep 1' + "1" * 50 + '", "mean": 1,\n'
     '  "times": [' + "1" * 50 + ']}]}',
     ["x.json:2:13: a whole number of 50 digits is too large"]),
    ("hyperfine", '{"results": [{"command": "1e-999", "mean": 1, "times": [2.5, 1e-999]}]}',
     ["x.json:1:62: the number 1e-999 is too close to 0 to read"]),
    # The key written twice in an inner object, after the outer's other keys.
    ("pytest-benchmark", '{"benchmarks": [{"name": "a", "stats": {"mean": 1, "rounds": 2,\n'
     '  "max": 3, "mean": 4}}], "name": 1}',
     ["x.json:2:13: key 'mean' appears twice in one object"]),
    # A run record's number too large for a Decimal to compute with (once a traceback).
    ("jsonl", '{"id": "a", "value": 1e99999999999}\n',
     ["x.json:1:22: the number 1e99999999999 is too large to read"]),
])
def test_the_decoders_refusals_at_their_place(tmp_path: Path, fmt: str, text: str,
                                             printed: list[str]) -> None:
    assert told(tmp_path, fmt, text)[:len(printed)] == printed


def test_the_decoders_refusals_at_their_place_ok(tmp_path: Path) -> None:
    """The same files as their tools write them: read."""
    (tmp_path / "x.json").write_text(GAB + '"value": 1, "unit": "ns"}]}]}};\n')
    assert read_results("github-action-benchmark", tmp_path / "x.json", "x.json")
    (tmp_path / "x.json").write_text('{"id": "a", "value": 1e15}\n')
    assert read_results("jsonl", tmp_path / "x.json", "x.json")
