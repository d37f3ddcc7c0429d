"""Unit tests of the EXPECT/BUILD/marker parser (run by ctest as gpu_suite_lib_test)."""
import tempfile
import unittest
from pathlib import Path

from suitelib.expectations import ExpectationError, discover, parse_program

RACY = """__global__ void k(int* x) {
  x[0] = 1;      // @A
  int y = x[1];  // @B
}
// BUILD: -rdc=true
// EXPECT: race inter-block global RAW A B
// EXPECT-LOCKSTEP: no-race
"""


class ParseProgramTest(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.TemporaryDirectory()
        self.root = Path(self.tmp.name)
        (self.root / "grp").mkdir()

    def tearDown(self):
        self.tmp.cleanup()

    def write(self, name, text):
        path = self.root / "grp" / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        return path

    def test_race_with_markers_build_flags_and_lockstep(self):
        program = parse_program(self.write("p.cu", RACY), self.root)
        self.assertEqual((program.group, program.name), ("grp", "p"))
        self.assertEqual(program.build_flags, ["-rdc=true"])
        race = program.verdict("independent").races[0]
        self.assertEqual((race.race_class, race.space, race.hazard), ("inter-block", "global", "RAW"))
        self.assertEqual((race.first.line, race.second.line), (2, 3))
        self.assertTrue(program.verdict("lockstep").clean)

    def test_lockstep_defaults_to_independent_verdict(self):
        program = parse_program(self.write("p.cu", "x = 1; // @A\n// EXPECT: barrier-divergence A\n"), self.root)
        self.assertEqual(program.verdict("lockstep").divergences[0].site.line, 1)

    def test_markers_found_in_other_files_of_a_directory_program(self):
        self.write("d/main.cu", "// EXPECT: race inter-block global WAW A A\n")
        self.write("d/other.cu", "\n\nslot[0] = v; // @A\n")
        program = parse_program(self.root / "grp" / "d", self.root)
        self.assertEqual(program.name, "d")
        self.assertEqual(program.verdict("independent").races[0].first.file.name, "other.cu")
        self.assertEqual(program.verdict("independent").races[0].first.line, 3)

    def test_markers_found_in_included_suite_headers(self):
        (self.root / "shared_kernel.cuh").write_text("// shared kernel\n  x[0] = 1;  // @K\n")
        program = parse_program(self.write("v.cu", '#include "shared_kernel.cuh"\n'
                                                   "// EXPECT: race inter-block global WAW K K\n"), self.root)
        site = program.verdict("independent").races[0].first
        self.assertEqual((site.file.name, site.line), ("shared_kernel.cuh", 2))

    def assert_rejected(self, text, fragment):
        with self.assertRaises(ExpectationError) as caught:
            parse_program(self.write("bad.cu", text), self.root)
        self.assertIn(fragment, str(caught.exception))

    def test_rejects_unknown_class_space_and_hazard(self):
        self.assert_rejected("a; // @A\n// EXPECT: race inter-grid global RAW A A\n", "class 'inter-grid'")
        self.assert_rejected("a; // @A\n// EXPECT: race inter-block local RAW A A\n", "space 'local'")
        self.assert_rejected("a; // @A\n// EXPECT: race inter-block global RAR A A\n", "hazard 'RAR'")

    def test_rejects_missing_and_duplicate_markers(self):
        self.assert_rejected("// EXPECT: race inter-block global WAW A A\n", "@A occurs 0 times")
        self.assert_rejected("a; // @A\nb; // @A\n// EXPECT: race inter-block global WAW A A\n", "@A occurs 2 times")

    def test_rejects_malformed_lines(self):
        self.assert_rejected("int x;\n", "no EXPECT line")
        self.assert_rejected("// EXPECT: race inter-block global\n", "cannot parse")
        self.assert_rejected("// BUILD:\n// EXPECT: no-race\n", "empty BUILD line")
        self.assert_rejected("a; // @A\n// EXPECT: no-race\n// EXPECT: barrier-divergence A\n", "only EXPECT line")

    def test_discover_lists_files_and_directories_per_group(self):
        self.write("b.cu", RACY)
        self.write("a/main.cu", RACY)
        self.write("notes.txt", "")
        (self.root / "suitelib").mkdir()
        names = [p.name for p in discover(self.root)]
        self.assertEqual(names, ["a", "b.cu"])


class SuiteSourcesTest(unittest.TestCase):
    def test_every_program_of_the_suite_parses(self):
        root = Path(__file__).resolve().parent.parent
        programs = [parse_program(path, root) for path in discover(root)]
        self.assertGreaterEqual(len(programs), 150)


if __name__ == "__main__":
    unittest.main()
