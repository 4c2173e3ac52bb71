# expect error: 3:13: SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xff in position 0: invalid start byte
name = 'cafÿ'
