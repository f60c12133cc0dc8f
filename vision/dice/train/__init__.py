"""Training the dice networks: procedural pictures of dice (:mod:`.synth`), the training
script (:mod:`.train`, needs PyTorch: ``make train-dice``)."""
