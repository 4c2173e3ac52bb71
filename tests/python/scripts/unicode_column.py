# Columns count characters, not UTF-8 bytes.
# expect error: 3:23: NameError: name 'ñame' is not defined
label = "ŵéîghţ"; x = ñame
