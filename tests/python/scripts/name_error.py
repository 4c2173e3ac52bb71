# expect error: 5:14: NameError: name 'learnig_rate' is not defined. Did you mean: 'learning_rate'?
# expect output:     5 | step = 0.5 * learnig_rate
# expect output:       |              ^~~~~~~~~~~~
learning_rate = 0.1
step = 0.5 * learnig_rate
