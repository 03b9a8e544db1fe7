"""Stand-in for `tensorflow` written for this capture (not TensorFlow's code).

anovos/data_transformer/transformers.py imports tensorflow and three tensorflow.keras names at module
level (for its autoencoder-based imputation/latent-feature functions only). TensorFlow is not
installed here, so this package lets the module import; any use of the names raises.
"""
