# expect error: 4:12: ZeroDivisionError: division by zero
# expect output:       |            ^~~~~
scales = [0, 1, 2]
inverse = [1 / s * 2.0 for s in scales]
