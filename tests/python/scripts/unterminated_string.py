# expect error: 3:14: SyntaxError: unterminated string literal (detected at line 3)
message = f"loss {1.0:.3f}" + 'oops
