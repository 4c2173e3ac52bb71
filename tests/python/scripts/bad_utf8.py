# expect error: 2:14: SyntaxError: (unicode error) 'utf-8' codec can't decode byte 0xff in position 3: invalid start byte
name = 'cafÿ'
