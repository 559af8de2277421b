"""Reading dice from the camera: camera sources, finding dice, classifying faces, settling."""
