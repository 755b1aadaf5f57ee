#!/usr/bin/env python3
"""Checks a JUnit XML report as CI systems read it: validates it against Jenkins' junit-10.xsd (xmlschema), then
reads it back with junitparser and prints one line per test case: `SUITE | CASE | CLASS | passed|failed | MESSAGE`.

    python3 check_junit.py REPORT.xml XSD      exit status 0 when the report is valid
"""
import sys

import junitparser
import xmlschema


def main(report, xsd):
    schema = xmlschema.XMLSchema(xsd)
    errors = list(schema.iter_errors(report))
    for error in errors:
        print(f"invalid: {error.reason} at {error.path}")
    if errors:
        return 1
    xml = junitparser.JUnitXml.fromfile(report)
    suites = [xml] if isinstance(xml, junitparser.TestSuite) else list(xml)
    for suite in suites:
        for case in suite:
            failures = [result for result in case.result if isinstance(result, junitparser.Failure)]
            message = failures[0].message if failures else ""
            state = "failed" if failures else "passed"
            print(f"{suite.name} | {case.name} | {case.classname} | {state} | {message}")
            if failures:
                print("diff: " + (failures[0].text or "").replace("\n", "\\n"))
            print("out: " + str(len(case.system_out or "")))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2]))
