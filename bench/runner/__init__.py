"""The `fitz bench` runner: implementations, suites, measurement and the report."""
