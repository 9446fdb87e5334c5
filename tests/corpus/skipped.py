# scalarlint: skip-file
def rrule_everything(x):
    return x[len(x) - 1]
