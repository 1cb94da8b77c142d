# Found through `[python] path` in the project's fitz.toml.
def answer():
    return 42
