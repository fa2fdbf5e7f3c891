"""Small rule sets used to test the kernel (they are not shipped)."""
