"""TensorFlow: ``@tf.custom_gradient`` functions return ``(y, grad)`` and both are rules;
``@tf.RegisterGradient("Op")`` (``ops.RegisterGradient``) registers ``grad(op, *grads)``.
Tensors reach the host through ``.numpy()``, and ``tf.numpy_function`` / ``tf.py_func`` run
Python on host copies of their tensor arguments (``tf.py_function`` too, whose body then calls
``.numpy()``, reported there). Keras' ``backend.get_value(x)`` / ``batch_get_value`` and
Keras 3's ``keras.ops.convert_to_numpy(x)`` (any backend) return NumPy copies, and so does ``tf.get_static_value(t)`` of an eager tensor. TF1 code gives an op
a custom gradient by registering it (``tf.RegisterGradient(name)(grad)``) and building the op
under ``with graph.gradient_override_map({"PyFunc": name}):``: the function holding that block is
the rule's forward."""

from scalarlint.analysis.frameworks.base import Framework

FRAMEWORK = Framework(
    name="tensorflow",
    layer_bases=("tensorflow.keras.layers.Layer", "tensorflow.keras.Model", "tensorflow.Module", "keras.layers.Layer", "keras.Model"),
    rule_decorators=frozenset({"custom_gradient", "RegisterGradient", "recompute_grad"}),
    array_modules=("tf", "tensorflow", "tensorflow.experimental.numpy"),
    host_methods=frozenset({"numpy"}),
    host_functions=frozenset({"get_value", "batch_get_value", "get_static_value", "convert_to_numpy"}),
    host_callbacks=frozenset({"numpy_function", "py_func"}),
    rule_contexts=frozenset({"gradient_override_map"}),
)
