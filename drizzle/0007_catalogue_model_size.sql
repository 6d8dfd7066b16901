ALTER TABLE `catalogue_models` ADD `size_x_mm` real;--> statement-breakpoint
ALTER TABLE `catalogue_models` ADD `size_y_mm` real;--> statement-breakpoint
ALTER TABLE `catalogue_models` ADD `size_z_mm` real;