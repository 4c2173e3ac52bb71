# expect error: 2:31: SyntaxError: unterminated string literal (detected at line 2)
message = f"loss {1.0:.3f}" + 'oops
